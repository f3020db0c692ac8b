"""Play for a seat with the exact optimal strategy: bots, and absent players at their deadline."""

from __future__ import annotations

from core.game.ai.solver import solve
from core.game.ai.solver_long import solve_long
from core.game.events import TimedOut, TurnEnded
from core.game.flow import AUTO_TURNS_BEFORE_DROP, Step, choose, drop, is_long, objective, roll
from core.game.state import GameState, Phase


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
    in_a_row = step.state.seats[index].auto_turns + 1
    step.state = step.state.with_seat(index, auto_turns=in_a_row)
    step.emit(TimedOut(index))
    play_out_turn(step, auto=True)
    if in_a_row >= AUTO_TURNS_BEFORE_DROP:
        drop(step, index)


def play_bots(step: Step) -> None:
    """Bots act at once, turn after turn, until a human must act or the game is over."""
    while (seat := step.state.to_act) is not None and seat.bot:
        play_out_turn(step, auto=False)


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
