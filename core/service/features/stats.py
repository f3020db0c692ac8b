"""Leaderboard and stats updates for a click's events (SPEC section 5).

Per player `stats:<user>` hash; per server sorted sets `lb:<board>`. Stats are kept per rule set
(the rules' text form). Only matches between two humans or more reach the boards and the match
stats; a game against bots alone is practice (`practice_*` fields), a game with one player and
nobody else is solo (`solo_*`), and a match no human made a decision in counts for nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from enum import StrEnum

from core.game.events import Event, MatchEnded, MatchStarted, RoundEnded, TurnEnd, TurnEnded
from core.game.flow import is_long
from core.game.options import every_rule_set
from core.game.settlement import Transfer, deltas
from core.game.state import Ending, GameState, Seat
from core.service.features.keeping import Change
from core.service.features.season_boards import SEASON_HASHES
from core.service.model import keys
from core.service.model.commit import OpKind, StoreOp

CLOSER = 0  # the long game's first seat closes tiles, the second opens them
SCORED_TURNS = (TurnEnd.NO_MOVE, TurnEnd.SHUT, TurnEnd.LAST_DIE)
BASE_FIELDS = ("games", "wins", "rounds", "rounds_won", "shuts", "net", "decisions",
               "decisions_best", "solo_games", "solo_wins", "practice_games",
               "practice_wins", "tournaments_won")  # fmt: skip


class Counts(StrEnum):
    """What a game counts as (SPEC: only matches between humans reach the boards)."""

    MATCH = "match"  # two humans or more: wins, rounds, boards and ratings
    PRACTICE = "practice"  # one human against bots: `practice_*` stats only
    SOLO = "solo"  # one human alone (`solo`, or a lobby match nobody joined): `solo_*` stats
    VOID = "void"  # no human made a decision: nothing counts, every stake goes back


def counts_as(state: GameState, *, solo: bool) -> Counts:
    if state.void:
        return Counts.VOID
    humans = sum(not seat.bot for seat in state.seats)
    if solo or len(state.seats) == 1:
        return Counts.SOLO
    return Counts.PRACTICE if humans == 1 else Counts.MATCH


PREFIX = {Counts.MATCH: "", Counts.PRACTICE: "practice_", Counts.SOLO: "solo_"}


def kept(change: Change) -> list[StoreOp]:
    """The stats and leaderboards a change counts in (see `stat_ops`)."""
    record = change.record
    return stat_ops(record.state, change.events, change.transfers, solo=record.solo)


def names_kept(change: Change) -> Iterator[StoreOp]:
    """Display names, so leaderboards can show who an id is (written when the match begins)."""
    if any(isinstance(event, MatchStarted) for event in change.events):
        for seat in change.record.state.seats:
            if not seat.bot:
                yield StoreOp(OpKind.HSET, keys.NAMES, seat.id, seat.name)


def stat_ops(
    state: GameState, events: Sequence[Event], transfers: Sequence[Transfer], *, solo: bool
) -> list[StoreOp]:
    """Every stats and leaderboard update this click's events call for: none while no human
    has decided anything (auto-played turns of a void match count for nothing)."""
    counts = counts_as(state, solo=solo)
    rules = state.config.rules.to_str()
    ops: list[StoreOp] = []
    if counts is not Counts.VOID:
        for event in events:
            ops += _event_ops(state, event, rules, counts)
    ops += _net_ops(state, transfers)
    return [*ops, *season_copies(ops)]


def season_copies(ops: Sequence[StoreOp]) -> list[StoreOp]:
    """Each `stats:<user>` update again on the current season's stats hash (`season_stats`,
    field `<user>|<field>`): `stats` speaks of the season, `stats all` of all time."""
    member = keys.stats("")
    return [
        StoreOp(op.kind, SEASON_HASHES[0], f"{op.key.removeprefix(member)}|{op.field}", op.value)
        for op in ops
        if op.key.startswith(member)
    ]


def season_fields(user: str) -> list[str]:
    """Every field of `user` the season's stats hash can hold, derived from the rule sets."""
    names = [*BASE_FIELDS]
    for rules in every_rule_set():
        for prefix in ("", "solo_", "practice_"):
            names += [
                f"{prefix}{stat}:{rules.to_str()}" for stat in ("turns", "sum", "best", "shuts")
            ]
    return [f"{user}|{name}" for name in names]


def _event_ops(state: GameState, event: Event, rules: str, counts: Counts) -> Iterator[StoreOp]:
    if isinstance(event, TurnEnded) and event.score is not None and event.reason in SCORED_TURNS:
        if not state.seats[event.seat].bot:
            yield from _turn_ops(state.seats[event.seat].id, event, rules, counts)
    elif isinstance(event, RoundEnded) and counts is Counts.MATCH:
        yield from _round_ops(state, event)
    elif isinstance(event, MatchEnded) and event.ending is Ending.FINISHED:
        yield from _match_ops(state, event, counts)


def _turn_ops(user: str, event: TurnEnded, rules: str, counts: Counts) -> Iterator[StoreOp]:
    assert event.score is not None
    key, prefix = keys.stats(user), PREFIX[counts]
    shut = int(event.reason is TurnEnd.SHUT)
    yield StoreOp(OpKind.HINCRBY, key, f"{prefix}turns:{rules}", 1)
    yield StoreOp(OpKind.HINCRBY, key, f"{prefix}sum:{rules}", event.score)
    yield StoreOp(OpKind.HMIN, key, f"{prefix}best:{rules}", event.score)
    yield StoreOp(OpKind.HINCRBY, key, f"{prefix}shuts:{rules}", shut)
    if counts is Counts.MATCH:
        yield StoreOp(OpKind.ZMIN, keys.board(f"best:{rules}"), user, event.score)
        yield StoreOp(OpKind.ZINCRBY, keys.board(f"turns:{rules}"), user, 1)
        yield StoreOp(OpKind.ZINCRBY, keys.board(f"sum:{rules}"), user, event.score)


def _round_ops(state: GameState, event: RoundEnded) -> Iterator[StoreOp]:
    for index, score in enumerate(event.scores):
        seat = state.seats[index]
        if seat.bot or score is None:
            continue
        won, shut = int(index in event.winners), int(index in event.shut_by)
        yield StoreOp(OpKind.HINCRBY, keys.stats(seat.id), "rounds", 1)
        yield StoreOp(OpKind.HINCRBY, keys.stats(seat.id), "rounds_won", won)
        yield StoreOp(OpKind.HINCRBY, keys.stats(seat.id), "shuts", shut)
        yield StoreOp(OpKind.ZINCRBY, keys.board("rounds"), seat.id, won)
        yield StoreOp(OpKind.ZINCRBY, keys.board("shuts"), seat.id, shut)


def _match_ops(state: GameState, event: MatchEnded, counts: Counts) -> Iterator[StoreOp]:
    prefix = PREFIX[counts]
    if counts is Counts.MATCH and is_long(state) and event.winners == (CLOSER,):
        yield from _long_shut_ops(state.seats[CLOSER])
    for index, seat in enumerate(state.seats):
        if seat.bot:
            continue
        won = int(index in event.winners)
        yield StoreOp(OpKind.HINCRBY, keys.stats(seat.id), f"{prefix}games", 1)
        yield StoreOp(OpKind.HINCRBY, keys.stats(seat.id), f"{prefix}wins", won)
        if counts is Counts.MATCH:
            yield StoreOp(OpKind.ZINCRBY, keys.board("wins"), seat.id, won)


def _long_shut_ops(closer: Seat) -> Iterator[StoreOp]:
    """The long game's closer wins only by shutting the whole box: a box shut like a round's."""
    if not closer.bot:
        yield StoreOp(OpKind.HINCRBY, keys.stats(closer.id), "shuts", 1)
        yield StoreOp(OpKind.ZINCRBY, keys.board("shuts"), closer.id, 1)


def _net_ops(state: GameState, transfers: Sequence[Transfer]) -> Iterator[StoreOp]:
    players = {seat.id for seat in state.seats}
    for account, delta in deltas(transfers).items():
        if account in players and delta:
            yield StoreOp(OpKind.HINCRBY, keys.stats(account), "net", delta)
