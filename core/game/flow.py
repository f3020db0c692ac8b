"""How turns follow each other: rolling, choosing, ending turns, auto-play for bots and absentees.

The engine's handlers validate an action and call in here; these functions trust their input.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.game import standings
from core.game.ai.solver import Objective
from core.game.dice import DiceSource
from core.game.errors import IllegalMove
from core.game.events import (
    Dropped,
    Eliminated,
    Event,
    ExtraRoll,
    MatchEnded,
    Moved,
    Rolled,
    RoundEnded,
    RoundStarted,
    TurnEnd,
    TurnEnded,
)
from core.game.match import LIMIT, FormatKind
from core.game.state import Ending, GameState, Phase

AUTO_TURNS_BEFORE_DROP = 3


@dataclass(slots=True)
class Step:
    """The state being built by one `apply`, and what happened on the way."""

    state: GameState
    dice: DiceSource
    events: list[Event] = field(default_factory=list)

    def emit(self, event: Event) -> None:
        self.events.append(event)


def is_long(state: GameState) -> bool:
    return state.config.format.kind is FormatKind.LONG


def opening(state: GameState) -> bool:
    """In the long game the second seat opens closed tiles instead of closing open ones."""
    return is_long(state) and state.turn == 1


def available(state: GameState) -> int:
    """The tiles the player to act may move: open ones, or closed ones for the opener."""
    full = state.config.rules.full_mask
    return full & ~state.board if opening(state) else state.board


def objective(state: GameState) -> Objective:
    """What optimal play aims for in this match."""
    if state.config.format.kind is FormatKind.FIRST_SHUT:
        return Objective.SHUT
    return Objective(state.config.rules.scoring.value)


def start_long(step: Step) -> None:
    full = step.state.config.rules.full_mask
    step.state = step.state.evolve(
        round=1, phase=Phase.ROLL, turn=0, board=full, dice=(), round_seats=0b11
    )
    step.emit(RoundStarted(1, (0, 1)))


def start_round(step: Step, number: int) -> None:
    state = step.state
    played = tuple(None for _ in state.seats)
    playing = sum(1 << i for i, seat in enumerate(state.seats) if seat.active)
    step.state = state.evolve(
        round=number, played=played, phase=Phase.ROLL, turn=-1, dice=(), round_seats=playing
    )
    step.emit(RoundStarted(number, standings.order(step.state)))
    next_turn(step)


def next_turn(step: Step) -> None:
    """Hand the box to the next player of the round (skipping dropped ones), or end the round."""
    rules = step.state.config.rules
    for index in standings.order(step.state):
        seat = step.state.seats[index]
        if step.state.played[index] is not None:
            continue
        if seat.dropped:
            record_score(step, index, rules.max_score, TurnEnd.SKIPPED)
            continue
        step.state = step.state.evolve(turn=index, board=rules.full_mask, phase=Phase.ROLL, dice=())
        return
    end_round(step)


def roll(step: Step, count: int, *, auto: bool) -> None:
    state = step.state
    rules = state.config.rules
    if count not in rules.dice_choices(available(state)):
        allowed = "/".join(map(str, rules.dice_choices(available(state))))
        raise IllegalMove("error.dice_count", allowed=allowed)
    dice = step.dice.roll(count)
    step.emit(Rolled(state.turn, dice, auto))
    found = rules.allows(available(state), dice)
    if found.moves:
        step.state = state.evolve(phase=Phase.CHOOSE, dice=dice, ends_turn=found.ends_turn)
    elif rules.rolls_again(dice, long_game=is_long(state)):
        step.state = state.evolve(dice=dice)
        step.emit(ExtraRoll(state.turn))
    else:
        step.state = state.evolve(dice=dice)
        end_turn(step, TurnEnd.NO_MOVE)


def choose(step: Step, tiles: int, *, auto: bool) -> None:
    state = step.state
    found = state.config.rules.allows(available(state), state.dice)
    if tiles not in found.moves:
        raise IllegalMove("error.illegal_move")
    board = state.board | tiles if opening(state) else state.board & ~tiles
    step.state = state.evolve(board=board, phase=Phase.ROLL, ends_turn=False)
    step.emit(Moved(state.turn, tiles, auto, opened=opening(state)))
    if is_long(state):
        _after_long_move(step, found.ends_turn)
    elif board == 0:
        end_turn(step, TurnEnd.SHUT)
    elif found.ends_turn:
        end_turn(step, TurnEnd.LAST_DIE)


def _after_long_move(step: Step, ends_turn: bool) -> None:
    state = step.state
    finished = state.board == (state.config.rules.full_mask if state.turn == 1 else 0)
    if finished:
        end_match(step, Ending.FINISHED, (state.turn,))
    elif ends_turn:
        end_turn(step, TurnEnd.LAST_DIE)


def end_turn(step: Step, reason: TurnEnd) -> None:
    state = step.state
    if is_long(state):
        step.emit(TurnEnded(state.turn, None, reason, state.dice, available(state)))
        step.state = state.evolve(turn=1 - state.turn, phase=Phase.ROLL, dice=())
        return
    record_score(step, state.turn, state.config.rules.score(state.board), reason)
    if reason is TurnEnd.SHUT:
        close_round_after_shut(step)
    else:
        next_turn(step)


def record_score(step: Step, index: int, score: int, reason: TurnEnd) -> None:
    state = step.state
    played = list(state.played)
    played[index] = score
    dice = () if reason is TurnEnd.SKIPPED else state.dice
    left = available(state) if index == state.turn else state.config.rules.full_mask
    step.state = state.evolve(played=tuple(played), dice=dice)
    step.emit(TurnEnded(index, score, reason, step.state.dice, left))


def end_match(step: Step, ending: Ending, winners: tuple[int, ...]) -> None:
    """End the match: one event, whatever combination of causes reaches here in one step."""
    if step.state.over:
        return
    step.state = step.state.evolve(phase=Phase.OVER, ending=ending, winners=winners, turn=-1)
    step.emit(MatchEnded(ending, winners))


def decided(step: Step, index: int) -> None:
    """The player decided for themselves: no longer absent, nor idle."""
    seat = step.state.seats[index]
    if seat.auto_turns or seat.idle:
        step.state = step.state.with_seat(index, auto_turns=0, idle=False)


def drop(step: Step, index: int, *, left: bool = False) -> None:
    """Take a player out of the rest of the match; their remaining rounds score the maximum.

    A match that has already ended (the third auto-played turn can end the last round before
    its player would be dropped) drops nobody: the end stays the one it was.
    """
    if step.state.seats[index].dropped or step.state.over:
        return
    step.state = step.state.with_seat(index, dropped=True, left=left)
    step.emit(Dropped(index, left))
    if is_long(step.state):
        end_match(step, Ending.FINISHED, (1 - index,))
        return
    if step.state.turn == index and step.state.phase in (Phase.ROLL, Phase.CHOOSE):
        record_score(step, index, step.state.config.rules.max_score, TurnEnd.SKIPPED)
        if not standings.everyone_gone(step.state):
            next_turn(step)
    if standings.everyone_gone(step.state):
        finish_without_players(step)


def close_round_after_shut(step: Step) -> None:
    """A shut box wins the round at once; those yet to play score the maximum (000, 001)."""
    state = step.state
    for index in standings.order(state):
        if state.played[index] is None:
            record_score(step, index, state.config.rules.max_score, TurnEnd.SHUT_BY_OTHER)
    end_round(step, shut_by=(state.turn,))


def end_round(step: Step, shut_by: tuple[int, ...] = ()) -> None:
    state = step.state
    contenders = [i for i in standings.order(state) if not state.seats[i].dropped]
    scores = [state.played[i] or 0 for i in contenders]
    winners = shut_by or standings.lowest(state, contenders, scores)
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
    kind = step.state.config.format.kind
    if kind is FormatKind.ELIMINATION:
        _eliminate(step)
    winners = standings.match_winners(step.state, shut_by)
    if winners is not None or standings.everyone_gone(step.state):
        end_match(step, Ending.FINISHED, winners or standings.lowest_totals(step.state))
        return
    step.state = step.state.evolve(starter=standings.next_starter(step.state))
    start_round(step, step.state.round + 1)


def _eliminate(step: Step) -> None:
    for index, seat in enumerate(step.state.seats):
        if not seat.out and seat.total > LIMIT:
            step.state = step.state.with_seat(index, out=True)
            step.emit(Eliminated(index, seat.total))


def finish_without_players(step: Step) -> None:
    """The last human left: the match ends inside the round, counting the turns played so far
    (a dropped player's total must not hide the turn the table just watched). Every dropped
    player's turn still to come in this round scores the maximum, as it would have had the round
    gone on, so the leavers' totals compare fairly (ratings rank them by those totals)."""
    max_score = step.state.config.rules.max_score
    for index in standings.order(step.state):
        state = step.state
        if state.seats[index].dropped and state.in_round(index) and state.played[index] is None:
            record_score(step, index, max_score, TurnEnd.SKIPPED)
    state = step.state
    for index, score in enumerate(state.played):
        if score is not None and not state.over:
            state = state.with_seat(index, total=state.seats[index].total + score)
    step.state = state
    end_match(step, Ending.FINISHED, standings.lowest_totals(step.state))
