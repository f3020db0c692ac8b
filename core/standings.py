"""Rounds and matches: seating order, round winners, totals, and when each match format ends."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.events import Eliminated, RoundEnded, TurnEnd
from core.match import LIMIT, FormatKind
from core.state import Ending, GameState

if TYPE_CHECKING:
    from core.flow import Step


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


def close_round_after_shut(step: Step) -> None:
    """A shut box wins the round at once; those yet to play score the maximum (000, 001)."""
    from core.flow import record_score

    state = step.state
    for index in order(state):
        if state.played[index] is None:
            record_score(step, index, state.config.rules.max_score, TurnEnd.SHUT_BY_OTHER)
    end_round(step, shut_by=(state.turn,))


def end_round(step: Step, shut_by: tuple[int, ...] = ()) -> None:
    state = step.state
    contenders = [i for i in order(state) if not state.seats[i].dropped]
    scores = [state.played[i] or 0 for i in contenders]
    winners = shut_by or lowest(state, contenders, scores)
    for index, score in enumerate(state.played):
        if score is not None:
            seat = state.seats[index]
            state = state.with_seat(
                index,
                total=seat.total + score,
                rounds_won=seat.rounds_won + (index in winners),
                shuts=seat.shuts + (index in shut_by),
            )
    step.state = state.evolve(history=(*state.history, state.played))
    step.emit(RoundEnded(state.round, state.played, winners, shut_by))
    _after_round(step, shut_by)


def _after_round(step: Step, shut_by: tuple[int, ...]) -> None:
    from core.flow import end_match, start_round

    kind = step.state.config.format.kind
    if kind is FormatKind.ELIMINATION:
        _eliminate(step)
    winners = _match_winners(step.state, shut_by)
    if winners is not None or everyone_gone(step.state):
        end_match(step, Ending.FINISHED, winners or lowest_totals(step.state))
        return
    step.state = step.state.evolve(starter=_next_starter(step.state))
    start_round(step, step.state.round + 1)


def _match_winners(state: GameState, shut_by: tuple[int, ...]) -> tuple[int, ...] | None:
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


def _eliminate(step: Step) -> None:
    for index, seat in enumerate(step.state.seats):
        if not seat.out and seat.total > LIMIT:
            step.state = step.state.with_seat(index, out=True)
            step.emit(Eliminated(index, seat.total))


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


def _next_starter(state: GameState) -> int:
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


def finish_without_players(step: Step) -> None:
    """The last human left: the match ends inside the round, counting the turns played so far
    (a dropped player's total must not hide the turn the table just watched)."""
    from core.flow import end_match

    state = step.state
    for index, score in enumerate(state.played):
        if score is not None and not state.over:
            state = state.with_seat(index, total=state.seats[index].total + score)
    step.state = state
    end_match(step, Ending.FINISHED, lowest_totals(step.state))
