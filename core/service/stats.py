"""Leaderboard and stats updates for a click's events (SPEC section 5).

Per player `stats:<user>` hash; per server sorted sets `lb:<board>`. Stats are kept per rule set
(the rules' text form); solo results go to `solo_*` fields only, apart from multiplayer ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from core.game.events import Event, MatchEnded, RoundEnded, TurnEnd, TurnEnded
from core.game.rules import every_rule_set
from core.game.settlement import Transfer, deltas
from core.game.state import Ending, GameState
from core.service.boards import SEASON_HASHES
from core.service.commit import OpKind, StatOp

SCORED_TURNS = (TurnEnd.NO_MOVE, TurnEnd.SHUT, TurnEnd.LAST_DIE)
BASE_FIELDS = ("games", "wins", "rounds", "rounds_won", "shuts", "net", "decisions",
               "decisions_best", "solo_games", "solo_wins")  # fmt: skip


def stat_ops(
    state: GameState, events: Sequence[Event], transfers: Sequence[Transfer], *, solo: bool
) -> list[StatOp]:
    """Every stats and leaderboard update this click's events call for."""
    rules = state.config.rules.to_str()
    ops: list[StatOp] = []
    for event in events:
        ops += _event_ops(state, event, rules, solo)
    ops += _net_ops(state, transfers)
    return [*ops, *season_copies(ops)]


def season_copies(ops: Sequence[StatOp]) -> list[StatOp]:
    """Each `stats:<user>` update again on the current season's stats hash (`season_stats`,
    field `<user>|<field>`): `stats` speaks of the season, `stats all` of all time."""
    return [
        StatOp(op.kind, SEASON_HASHES[0], f"{op.key.removeprefix('stats:')}|{op.field}", op.value)
        for op in ops
        if op.key.startswith("stats:")
    ]


def season_fields(user: str) -> list[str]:
    """Every field of `user` the season's stats hash can hold, derived from the rule sets."""
    names = [*BASE_FIELDS]
    for rules in every_rule_set():
        for prefix in ("", "solo_"):
            names += [
                f"{prefix}{stat}:{rules.to_str()}" for stat in ("turns", "sum", "best", "shuts")
            ]
    return [f"{user}|{name}" for name in names]


def _event_ops(state: GameState, event: Event, rules: str, solo: bool) -> Iterator[StatOp]:
    if isinstance(event, TurnEnded) and event.score is not None and event.reason in SCORED_TURNS:
        if not state.seats[event.seat].bot:
            yield from _turn_ops(state.seats[event.seat].id, event, rules, solo)
    elif isinstance(event, RoundEnded) and not solo:
        yield from _round_ops(state, event)
    elif isinstance(event, MatchEnded) and event.ending is Ending.FINISHED:
        yield from _match_ops(state, event, solo)


def _turn_ops(user: str, event: TurnEnded, rules: str, solo: bool) -> Iterator[StatOp]:
    assert event.score is not None
    key, prefix = f"stats:{user}", "solo_" if solo else ""
    shut = int(event.reason is TurnEnd.SHUT)
    yield StatOp(OpKind.HINCRBY, key, f"{prefix}turns:{rules}", 1)
    yield StatOp(OpKind.HINCRBY, key, f"{prefix}sum:{rules}", event.score)
    yield StatOp(OpKind.HMIN, key, f"{prefix}best:{rules}", event.score)
    yield StatOp(OpKind.HINCRBY, key, f"{prefix}shuts:{rules}", shut)
    if not solo:
        yield StatOp(OpKind.ZMIN, f"lb:best:{rules}", user, event.score)
        yield StatOp(OpKind.ZINCRBY, f"lb:turns:{rules}", user, 1)
        yield StatOp(OpKind.ZINCRBY, f"lb:sum:{rules}", user, event.score)


def _round_ops(state: GameState, event: RoundEnded) -> Iterator[StatOp]:
    for index, score in enumerate(event.scores):
        seat = state.seats[index]
        if seat.bot or score is None:
            continue
        won, shut = int(index in event.winners), int(index in event.shut_by)
        yield StatOp(OpKind.HINCRBY, f"stats:{seat.id}", "rounds", 1)
        yield StatOp(OpKind.HINCRBY, f"stats:{seat.id}", "rounds_won", won)
        yield StatOp(OpKind.HINCRBY, f"stats:{seat.id}", "shuts", shut)
        yield StatOp(OpKind.ZINCRBY, "lb:rounds", seat.id, won)
        yield StatOp(OpKind.ZINCRBY, "lb:shuts", seat.id, shut)


def _match_ops(state: GameState, event: MatchEnded, solo: bool) -> Iterator[StatOp]:
    prefix = "solo_" if solo else ""
    for index, seat in enumerate(state.seats):
        if seat.bot:
            continue
        won = int(index in event.winners)
        yield StatOp(OpKind.HINCRBY, f"stats:{seat.id}", f"{prefix}games", 1)
        yield StatOp(OpKind.HINCRBY, f"stats:{seat.id}", f"{prefix}wins", won)
        if not solo:
            yield StatOp(OpKind.ZINCRBY, "lb:wins", seat.id, won)


def _net_ops(state: GameState, transfers: Sequence[Transfer]) -> Iterator[StatOp]:
    players = {seat.id for seat in state.seats}
    for account, delta in deltas(transfers).items():
        if account in players and delta:
            yield StatOp(OpKind.HINCRBY, f"stats:{account}", "net", delta)
