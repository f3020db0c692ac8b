"""Rounds and matches: seating order, round winners, totals, and when each match format ends."""

from __future__ import annotations

from core.game.match import LIMIT, FormatKind
from core.game.state import GameState


def order(state: GameState) -> tuple[int, ...]:
    """Seats in playing order for this round: from the starter round the table, skipping the out."""
    count = len(state.seats)
    seats = ((state.starter + i) % count for i in range(count))
    return tuple(i for i in seats if not state.seats[i].out)


def lowest(state: GameState, candidates: list[int], values: list[int]) -> tuple[int, ...]:
    """Every candidate sharing the lowest value (ties share the win)."""
    if not candidates:
        return ()
    best = min(values)
    return tuple(c for c, v in zip(candidates, values, strict=True) if v == best)


def match_winners(state: GameState, shut_by: tuple[int, ...]) -> tuple[int, ...] | None:
    """The match winners if the format says the match is over now, else None."""
    fmt = state.config.format
    if fmt.kind is FormatKind.ROUNDS and state.round >= fmt.rounds:
        return lowest_totals(state)
    if fmt.kind is FormatKind.TO_45 and any(s.total > LIMIT for s in state.seats):
        return lowest_totals(state)
    if fmt.kind is FormatKind.FIRST_SHUT and shut_by:
        return shut_by
    if fmt.kind is FormatKind.ELIMINATION:
        return _last_standing(state)
    return None


def _last_standing(state: GameState) -> tuple[int, ...] | None:
    standing = [i for i, s in enumerate(state.seats) if s.active]
    if len(state.seats) == 1:
        return (0,) if not standing else None  # solo: play on until out
    if len(standing) == 1:
        return (standing[0],)
    if not standing:
        # Everyone left passed 45 in the same round: the lowest total of them wins.
        last = [i for i, s in enumerate(state.seats) if not s.dropped]
        return lowest(state, last, [state.seats[i].total for i in last])
    return None


def lowest_totals(state: GameState) -> tuple[int, ...]:
    """Match winners by total, among players not dropped."""
    present = [i for i, s in enumerate(state.seats) if not s.dropped]
    return lowest(state, present, [state.seats[i].total for i in present])


def next_starter(state: GameState) -> int:
    """The starting seat rotates each round, skipping players who no longer play."""
    count = len(state.seats)
    for offset in range(1, count + 1):
        index = (state.starter + offset) % count
        if state.seats[index].active:
            return index
    return state.starter


def everyone_gone(state: GameState) -> bool:
    """No human is still playing: nobody is left to watch the bots."""
    return not any(s.active and not s.bot for s in state.seats)
