"""How turns follow each other: rolling, choosing, ending turns, auto-play for bots and absentees.

The engine's handlers validate an action and call in here; these functions trust their input.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core import standings
from core.dice import DiceSource
from core.errors import IllegalMove
from core.events import (
    Dropped,
    Event,
    ExtraRoll,
    MatchEnded,
    Moved,
    Rolled,
    RoundStarted,
    TimedOut,
    TurnEnd,
    TurnEnded,
)
from core.match import FormatKind
from core.moves import options
from core.rules import score_of
from core.solver import Objective, solve
from core.solver_long import solve_long
from core.state import Ending, GameState, Phase

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
    standings.end_round(step)


def roll(step: Step, count: int, *, auto: bool) -> None:
    state = step.state
    rules = state.config.rules
    if count not in rules.dice_choices(available(state)):
        allowed = "/".join(map(str, rules.dice_choices(available(state))))
        raise IllegalMove("error.dice_count", allowed=allowed)
    dice = step.dice.roll(count)
    step.emit(Rolled(state.turn, dice, auto))
    found = options(rules, available(state), dice)
    if found.moves:
        step.state = state.evolve(phase=Phase.CHOOSE, dice=dice, ends_turn=found.ends_turn)
    elif is_long(state) and len(dice) >= 2 and len(set(dice)) == 1:
        # Source 001: a double grants one more roll even when it cannot be used.
        step.state = state.evolve(dice=dice)
        step.emit(ExtraRoll(state.turn))
    else:
        step.state = state.evolve(dice=dice)
        end_turn(step, TurnEnd.NO_MOVE)


def choose(step: Step, tiles: int, *, auto: bool) -> None:
    state = step.state
    found = options(state.config.rules, available(state), state.dice)
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
    record_score(step, state.turn, score_of(state.config.rules, state.board), reason)
    if reason is TurnEnd.SHUT:
        standings.close_round_after_shut(step)
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
    step.state = step.state.evolve(phase=Phase.OVER, ending=ending, winners=winners, turn=-1)
    step.emit(MatchEnded(ending, winners))


def reset_streak(step: Step, index: int) -> None:
    if step.state.seats[index].auto_streak:
        step.state = step.state.with_seat(index, auto_streak=0)


def play_out_turn(step: Step, *, auto: bool) -> None:
    """Play the rest of the current turn with the optimal strategy."""
    index, mark = step.state.turn, len(step.events)
    while _turn_goes_on(step, index, mark):
        if step.state.phase is Phase.ROLL:
            roll(step, _best_dice(step.state), auto=auto)
        else:
            choose(step, _best_move(step.state), auto=auto)


def _turn_goes_on(step: Step, index: int, mark: int) -> bool:
    """Still inside the turn that began at event `mark` (a new round may give `index` a new one)."""
    if step.state.over or step.state.turn != index:
        return False
    return not any(isinstance(e, TurnEnded) for e in step.events[mark:])


def auto_turn(step: Step) -> None:
    """The deadline passed: play the absent player's turn for them; drop them after three."""
    index = step.state.turn
    streak = step.state.seats[index].auto_streak + 1
    step.state = step.state.with_seat(index, auto_streak=streak)
    step.emit(TimedOut(index))
    play_out_turn(step, auto=True)
    if streak >= AUTO_TURNS_BEFORE_DROP:
        drop(step, index)


def play_bots(step: Step) -> None:
    """Bots act at once, turn after turn, until a human must act or the game is over."""
    while (seat := step.state.to_act) is not None and seat.bot:
        play_out_turn(step, auto=False)


def drop(step: Step, index: int, *, left: bool = False) -> None:
    """Take a player out of the rest of the match; their remaining rounds score the maximum."""
    if step.state.seats[index].dropped:
        return
    step.state = step.state.with_seat(index, dropped=True)
    step.emit(Dropped(index, left))
    if is_long(step.state):
        end_match(step, Ending.FINISHED, (1 - index,))
    elif standings.everyone_gone(step.state):
        standings.finish_without_players(step)
    elif step.state.turn == index and step.state.phase in (Phase.ROLL, Phase.CHOOSE):
        record_score(step, index, step.state.config.rules.max_score, TurnEnd.SKIPPED)
        next_turn(step)


def _best_dice(state: GameState) -> int:
    if is_long(state):
        return solve_long(state.config.rules).best_dice(state.board, state.turn)
    return solve(state.config.rules, objective(state)).best_dice(state.board)


def _best_move(state: GameState) -> int:
    if is_long(state):
        move = solve_long(state.config.rules).best_move(state.board, state.turn, state.dice)
    else:
        move = solve(state.config.rules, objective(state)).best_move(state.board, state.dice)
    assert move is not None, "CHOOSE phase always has a legal move"
    return move
