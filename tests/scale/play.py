"""Playing staked matches through a GameManager the way adapters do: commands and button clicks."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from core.service.api.commands import Begin, Click, Join, Start
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.record import GameRecord
from core.service.model.settings import StartOptions
from core.service.pipeline.manager import GameManager
from core.service.show import present
from core.store.redis_store import RedisStore

PLAYERS = ("ann", "bob")
STAKES = "pot:5"
START_CHIPS = 100  # the server default every new player gets from the mint
TURN_VERBS = ("roll", "choose")
_requests = itertools.count()


@dataclass(frozen=True, slots=True)
class Seat:
    """A channel of a server: where one match is played."""

    scope: Scope
    channel: str

    def ctx(self, user: str, request_id: str | None = None) -> Context:
        request = request_id or f"req-{next(_requests)}"
        return Context(self.scope, self.channel, user, user.title(), request_id=request)


def seats(servers: int, channels: int, platform: str = "scale") -> list[Seat]:
    """`channels` channels on each of `servers` servers (each server its own hash tag)."""
    return [
        Seat(Scope(platform, f"server{s}"), f"channel{c}")
        for s in range(servers)
        for c in range(channels)
    ]


async def open_match(manager: GameManager, seat: Seat, rounds: int = 2) -> None:
    """Ann starts a staked match, Bob joins, Ann begins it."""
    options = StartOptions(format=f"rounds:{rounds}", stakes=STAKES)
    for reply in (
        await manager.handle(seat.ctx("ann"), Start(options)),
        await manager.handle(seat.ctx("bob"), Join()),
        await manager.handle(seat.ctx("ann"), Begin()),
    ):
        assert reply.game is not None, reply.private


def turn_buttons(record: GameRecord) -> list[str]:
    """The roll and move buttons of the game message as it is now."""
    rows = present.game_view(record).rows
    return [b.action_id for row in rows for b in row if b.action_id.split(":")[1] in TURN_VERBS]


async def fresh_record(store: RedisStore, seat: Seat) -> GameRecord | None:
    """The game as Redis holds it now (not a process cache): what players see."""
    stored = await store.load(seat.scope, seat.channel)
    return None if stored is None else GameRecord.from_str(stored.record, seat.channel)


async def play_to_end(
    manager: GameManager,
    seat: Seat,
    max_clicks: int = 2000,
    pick: Callable[[list[str]], str] = lambda buttons: buttons[0],
) -> int:
    """The player to act presses a turn button until the match is over; returns the clicks."""
    for clicks in range(max_clicks):
        record = await fresh_record(manager.store, seat)
        if record is None or record.state.to_act is None:
            return clicks
        await manager.handle(seat.ctx(record.state.to_act.id), Click(pick(turn_buttons(record))))
    raise AssertionError(f"{seat} did not finish in {max_clicks} clicks")


async def chips_of(store: RedisStore, scope: Scope) -> dict[str, int]:
    """Every stored balance of the server: players, pots and the mint."""
    return {name: int(value) for name, value in (await store.hash(scope, "bal")).items()}
