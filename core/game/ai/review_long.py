"""Review of the two-player long game: every decision graded by the chance to win the match.

The long game's table (`core.game.ai.solver_long`) values each position by the mover's chance
to win, both sides playing perfectly from there. So a decision's loss is the best option's
chance minus the chosen one's, a probability (the texts show it in percentage points, as they
do the chance to shut). The closer (seat 0) acts on the open tiles and the opener (seat 1) on
the closed ones; both are graded alike. A turn goes on after an unusable double (the extra
roll), and ends when a roll allows nothing else, the last-die rule ends it, or the mover wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.game.ai.review import Decision, InvalidTurn, Kind, Review, Step, check_step
from core.game.ai.solver import TIE
from core.game.ai.solver_long import LongTable, solve_long
from core.game.rules import Rules


def grade_long_dice(table: LongTable, board: int, mover: int, chosen: int) -> Decision | None:
    """The choice of one or two dice with `board` open; None where only one count is allowed."""
    counts = table.rules.dice_choices(table.available(board, mover))
    if len(counts) < 2:
        return None
    best = table.best_dice(board, mover)
    loss = _shortfall(
        table.dice_chance(board, mover, best), table.dice_chance(board, mover, chosen)
    )
    return Decision(Kind.DICE, (), chosen, chosen if not loss else best, loss)


def grade_long_move(table: LongTable, board: int, mover: int, step: Step) -> Decision | None:
    """The choice of tiles after a roll (a legal one); None when the roll left no choice."""
    ranked = table.move_values(board, mover, step.dice)
    if len(ranked) < 2:
        return None
    best, best_chance = ranked[0]
    loss = _shortfall(best_chance, dict(ranked)[step.move])
    # Ties count as best: the player's own choice is the one to show.
    return Decision(Kind.MOVE, step.dice, step.move, step.move if not loss else best, loss)


def _shortfall(best: float, chosen: float) -> float:
    """How much lower the chosen chance is; value-iteration noise is no loss."""
    return 0.0 if best - chosen <= TIE else best - chosen


def review_long_turn(rules: Rules, board: int, mover: int, steps: Sequence[Step]) -> Review:
    """Grade one turn of `mover` (0 closer, 1 opener) begun with the tiles of `board` open.

    An impossible step raises `InvalidTurn`, and so does a position the mover has already won
    (no tile left to act on).
    """
    table = solve_long(rules)
    if not table.available(board, mover):
        raise InvalidTurn("error.review.won")
    decisions: list[Decision] = []
    ended = False
    for number, step in enumerate(steps, start=1):
        if ended:
            raise InvalidTurn("error.review.after_end", step=number)
        available = table.available(board, mover)
        found = check_step(rules, available, step, number)
        graded = (
            grade_long_dice(table, board, mover, len(step.dice)),
            grade_long_move(table, board, mover, step),
        )
        decisions += [decision for decision in graded if decision is not None]
        board ^= step.move  # closing an open tile and opening a closed one both flip it
        stuck = not step.move and not rules.rolls_again(step.dice, long_game=True)
        ended = stuck or found.ends_turn or step.move == available
    return Review(tuple(decisions))
