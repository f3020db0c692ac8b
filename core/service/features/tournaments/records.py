"""Where a tournament lives in the store, and the store operations that rewrite it."""

from __future__ import annotations

from dataclasses import dataclass

from core.game.errors import CorruptState
from core.game.tournament.text_form import from_text, to_text
from core.game.tournament.values import Status, Tournament
from core.service.model import keys
from core.service.model.commit import OpKind, Scope, StoreOp
from core.service.model.ports import GameStore

ACTIVE = keys.TOURNAMENTS  # channel -> the id of the tournament open or running there
FINISHED = keys.TOURNAMENTS_DONE  # id -> the channel, for every tournament that is over
ENDED = keys.TOURNAMENTS_ENDED  # channel -> the last tournament that ended there (its news)
LIVE = (Status.OPEN, Status.RUNNING)
# Set by the commit that finished a round, until the next table's result: the round's news
# and next tables may not have been told yet (core/service/features/tournaments/advance.py).
NEWS_DUE = "nd"


def key(tournament_id: str) -> str:
    return keys.tournament(tournament_id)


def pot_account(tournament_id: str) -> str:
    """The tournament's own account: fees in at the start, prizes or refunds out."""
    return f"pot:tour:{tournament_id}"


def hold_key(tournament_id: str) -> str:
    """What a member's held entry fee is kept under (core/store/lua/commit.lua)."""
    return f"tour:{tournament_id}"


@dataclass(frozen=True, slots=True)
class Stored:
    """A tournament as read, with the version its next write must check."""

    version: int
    tournament: Tournament
    channel: str
    news_due: bool = False


async def load(store: GameStore, scope: Scope, tournament_id: str) -> Stored | None:
    found = await store.hash(scope, key(tournament_id))
    if not found:
        return None
    try:
        return Stored(int(found["v"]), from_text(found["r"]), found.get("ch", ""),
                      found.get(NEWS_DUE) == "1")  # fmt: skip
    except (KeyError, ValueError) as exc:
        raise CorruptState(text=tournament_id) from exc


async def ended(store: GameStore, scope: Scope, channel: str) -> Stored | None:
    """The last tournament that ended in this channel, if any."""
    tournament_id = (await store.hash(scope, ENDED)).get(channel)
    return await load(store, scope, tournament_id) if tournament_id else None


async def active(store: GameStore, scope: Scope, channel: str) -> Stored | None:
    """The tournament open or running in this channel, if any ("" once it is over)."""
    tournament_id = (await store.hash(scope, ACTIVE)).get(channel)
    return await load(store, scope, tournament_id) if tournament_id else None


def rewrite(version: int, new: Tournament, channel: str) -> tuple[StoreOp, ...]:
    """Check the record is still at `version` (0: none yet), then write the next one."""
    record = key(new.id)
    ops = [
        StoreOp(OpKind.HEQ, record, "v", str(version) if version else ""),
        StoreOp(OpKind.HEQ, ACTIVE, channel, new.id if version else ""),
        StoreOp(OpKind.HSET, record, "r", to_text(new)),
        StoreOp(OpKind.HSET, record, "v", str(version + 1)),
        StoreOp(OpKind.HSET, record, "ch", channel),
    ]
    if new.status in LIVE:
        ops.append(StoreOp(OpKind.HSET, ACTIVE, channel, new.id))
    else:  # the channel is free for the next one
        ops += [StoreOp(OpKind.HSET, ACTIVE, channel, ""), StoreOp(OpKind.HSET, FINISHED, new.id,
                                                                      channel)]  # fmt: skip
    return tuple(ops)
