"""Calling the player whose turn it is (SPEC 8, "Turn calls"): an edit of the game message
notifies nobody, so when the turn passes to a human the surface posts a short call that the
platform delivers to them (written `<@id>`, the core's mention), once per turn, and takes it
down when the turn moves on.

A server chooses when (`config ping=turn|start|off`: every turn, only the match's first turn,
never); a member can opt out (`/shutbox ping off`, back with `ping on`). Solo games, private
challenges and bots are never called.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.game.errors import InvalidOption
from core.game.state import Phase
from core.service.model import keys
from core.service.model.commit import Commit, OpKind, Scope, StoreOp
from core.service.model.context import Context
from core.service.model.ports import GameStore
from core.service.model.record import GameRecord
from core.service.model.services import Command, Services
from core.service.model.views import Reply, TurnCall
from core.text.i18n import t

OPTED_OUT = keys.PINGS_OFF  # member -> "1" while they asked not to be called
# How long a posted call's message id is kept, to take it down when the turn moves on: longer
# than any turn (the longest timer is an hour).
CALL_KEPT_SECONDS = 86_400
SWITCHES = ("on", "off")


@dataclass(frozen=True, slots=True)
class Ping(Command):
    """`/shutbox ping on|off`: whether the member is called when it is their turn."""

    switch: str = ""


async def ping(services: Services, ctx: Context, command: Ping) -> Reply:
    lang = await services.private_lang(ctx)
    switch = command.switch.strip().lower()
    if not switch:
        off = (await services.store.hash(ctx.scope, OPTED_OUT)).get(ctx.user) == "1"
        return Reply(private=t(lang, "ping.is_off" if off else "ping.is_on"))
    if switch not in SWITCHES:
        raise InvalidOption("error.config.value", key="ping", value=switch[:20],
                            allowed=", ".join(SWITCHES))  # fmt: skip
    value = "1" if switch == "off" else ""
    await services.store.commit(Commit(ctx.scope, ops=(StoreOp(OpKind.HSET, OPTED_OUT, ctx.user,
                                                               value),)))  # fmt: skip
    return Reply(private=t(lang, f"ping.{switch}"))


def turn_key(record: GameRecord) -> str:
    """The turn a call is for ("" when nobody is to be called): the game, how many turns are
    behind it and the seat, so every roll of one turn shares it."""
    state = record.state
    if record.challenge or state.over or state.phase is Phase.LOBBY:
        return ""
    seat = state.to_act
    if seat is None or seat.bot or sum(1 for s in state.seats if not s.bot) < 2:
        return ""
    ended = sum(1 for _, turn in record.log if turn.ended)
    return f"{record.game_id}:{ended}:{state.turn}"


def called_for(record: GameRecord, mode: str, opted_out: dict[str, str]) -> str:
    """The key of the call this state makes, "" when it makes none."""
    key = turn_key(record)
    seat = record.state.to_act
    if not key or seat is None or mode == "off" or opted_out.get(seat.id) == "1":
        return ""
    first = key.split(":")[-2] == "0"  # no turn of the match has ended yet
    return key if mode == "turn" or first else ""


def calls(before: GameRecord, after: GameRecord, mode: str,
          opted_out: dict[str, str]) -> tuple[TurnCall | None, str]:  # fmt: skip
    """The call a change makes (the turn passed to a human), and the earlier call it ends."""
    old, new = called_for(before, mode, opted_out), called_for(after, mode, opted_out)
    seat = after.state.to_act
    if old == new or not new or seat is None:
        return None, "" if old == new else old
    text = t(after.lang, "ping.call", player=f"<@{seat.id}>")
    return TurnCall(new, after.channel, seat.id, text, after.message), old


async def called(store: GameStore, scope: Scope, before: GameRecord, after: GameRecord,
                 mode: str) -> tuple[TurnCall | None, str]:  # fmt: skip
    """`calls`, with whether the members it would call or uncall opted out: read only when a
    turn changes hands and a call is at stake, and only their fields (the hash of everyone who
    ever opted out grows with the server)."""
    if mode == "off" or turn_key(before) == turn_key(after):
        return None, ""
    users = [_to_act(record) for record in (before, after) if called_for(record, mode, {})]
    if not users:
        return None, ""
    return calls(before, after, mode, await store.hash_fields(scope, OPTED_OUT, users))


def _to_act(record: GameRecord) -> str:
    seat = record.state.to_act
    assert seat is not None  # a record with a turn key has someone to act
    return seat.id
