"""The optimal-play odds of a rule set: one function for the CLI's `shutbox odds` and the chat's
`odds`, so the two can never disagree on a figure or a best first move."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from core.game.ai.solver import Objective, Table, exact_p_shut, solve, sorted_rolls
from core.game.moves import move_label
from core.game.rules import Rules


@dataclass(frozen=True, slots=True)
class Odds:
    """Optimal-play figures for one rule set, each from the table of its own objective."""

    rules: Rules
    objective: Objective  # what the best first moves optimise
    p_shut: float
    p_shut_exact: Fraction | None
    expected_score: float
    expected_count: float
    best_first_moves: dict[str, str | None]


def scoring_objective(rules: Rules) -> Objective:
    """What a player of these rules aims for: the rules' own scoring (golf sum or tile count)."""
    return Objective(rules.scoring.value)


def compute_odds(rules: Rules, objective: Objective | None = None, *, exact: bool = False) -> Odds:
    """Every figure `odds` shows; the best first moves for `objective` (default: the rules'
    scoring); the exact fraction only when asked."""
    full = rules.full_mask
    aim = objective or scoring_objective(rules)
    return Odds(
        rules=rules,
        objective=aim,
        p_shut=solve(rules, Objective.SHUT).value(full),
        p_shut_exact=exact_p_shut(rules) if exact else None,
        expected_score=solve(rules, Objective.SUM).value(full),
        expected_count=solve(rules, Objective.COUNT).value(full),
        best_first_moves=best_first_moves(solve(rules, aim)),
    )


def first_rolls(rules: Rules) -> dict[str, tuple[int, ...]]:
    """The rolls that can differ on a full board, one per `Rules.roll_key`, labelled by it: each
    total for `any` (`7`), else each distinct roll of the dice (`3-4`)."""
    by_key: dict[tuple[int, ...], tuple[int, ...]] = {}
    for dice, _ in sorted_rolls(rules.dice):
        by_key.setdefault(rules.roll_key(dice), dice)
    return {"-".join(map(str, key)): dice for key, dice in sorted(by_key.items())}


def best_first_moves(table: Table) -> dict[str, str | None]:
    """Each first roll's best move label, or None when the roll closes nothing."""
    full = table.rules.full_mask
    moves = {label: table.best_move(full, dice) for label, dice in first_rolls(table.rules).items()}
    return {label: None if move is None else move_label(move) for label, move in moves.items()}
