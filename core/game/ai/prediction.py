"""A policy's exact chance to shut and score moments, averaged turn state by turn state.

Every policy (not only the optimal one) so comes with an exact prediction that simulated turns
can be compared with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from core.game.ai.policies import MoveBook, Player, Policy, make_player
from core.game.ai.solver import Objective, sorted_rolls
from core.game.rules import Rules

Moments = tuple[float, float, float]  # chance to shut, expected score, expected squared score


@dataclass(frozen=True, slots=True)
class Prediction:
    """The exact chance to shut and score distribution moments of a policy, from the start."""

    shut_rate: float
    mean_score: float
    score_variance: float


@cache
def predict(rules: Rules, policy: Policy, objective: Objective) -> Prediction:
    """The policy's exact chance to shut and score moments from a full board."""
    player, book = make_player(rules, policy, objective)
    shut, mean, squares = _policy_values(rules, player, book)[rules.full_mask]
    return Prediction(shut, mean, max(0.0, squares - mean * mean))


def _policy_values(rules: Rules, player: Player, book: MoveBook) -> list[Moments]:
    """Each board's moments before rolling; every move shrinks the board, so one pass suffices.

    A stuck roll that rolls again (`Rules.rolls_again`) starts the board over: the moments are
    those of the other outcomes, scaled up by the chance of not rolling again.
    """
    ends = [_end_moments(rules, board) for board in range(rules.full_mask + 1)]
    rerolls = _rerolls(rules)
    values = [ends[0]]
    for board in range(1, rules.full_mask + 1):
        counts = player.dice_counts(board)
        rolls = [_roll_moments(board, c, player, book, values, ends, rerolls) for c in counts]
        if len(rolls) == 1:
            moments, again = rolls[0]
        else:
            moments = _mean([part for part, _ in rolls])
            again = sum(chance for _, chance in rolls) / len(rolls)
        values.append(_scaled(moments, 1.0 / (1.0 - again)) if again else moments)
    return values


def _rerolls(rules: Rules) -> frozenset[tuple[int, ...]]:
    """The rolls that roll again when stuck, in a one-turn match."""
    rolls = (dice for count in (1, rules.dice) for dice, _ in sorted_rolls(count))
    return frozenset(dice for dice in rolls if rules.rolls_again(dice, long_game=False))


def _end_moments(rules: Rules, board: int) -> Moments:
    score = float(rules.score(board))
    return (1.0 if board == 0 else 0.0, score, score * score)


def _roll_moments(
    board: int,
    count: int,
    player: Player,
    book: MoveBook,
    values: list[Moments],
    ends: list[Moments],
    rerolls: frozenset[tuple[int, ...]],
) -> tuple[Moments, float]:
    """The moments of rolling `count` dice on `board` and following the policy after, summed
    over the outcomes but the stuck ones that roll again; and the chance of those."""
    parts: list[tuple[float, Moments]] = []
    again = 0.0
    for dice, ways in sorted_rolls(count):
        moves = player.moves(board, dice)
        if not moves and rerolls and dice in rerolls:
            again += ways / 6**count
            continue
        after = ends if not moves or book.options(board, dice).ends_turn else values
        outcomes = [after[board ^ move] for move in moves] or [ends[board]]
        parts.append((ways / 6**count, _mean(outcomes)))
    return _weighted(parts), again


def _mean(items: Sequence[Moments]) -> Moments:
    return _weighted([(1.0 / len(items), item) for item in items])


def _scaled(moments: Moments, factor: float) -> Moments:
    return moments[0] * factor, moments[1] * factor, moments[2] * factor


def _weighted(parts: Sequence[tuple[float, Moments]]) -> Moments:
    shut = sum(weight * item[0] for weight, item in parts)
    mean = sum(weight * item[1] for weight, item in parts)
    return shut, mean, sum(weight * item[2] for weight, item in parts)
