"""A stuck roll that rolls again outside the long game: no rule grants one yet, but the engine,
the one-turn solver, the prediction and the review all take whatever `Rules.rolls_again` says,
so a rule that does (an unusable double rolls again, in every format) changes only `Rules`."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import product

import pytest

from core.game.actions import Roll
from core.game.ai.policies import Policy
from core.game.ai.review import InvalidTurn, Step, review_from
from core.game.ai.simulation import simulate
from core.game.ai.solver import Objective, exact_p_shut, solve
from core.game.dice import FixedDice
from core.game.engine import apply
from core.game.events import ExtraRoll, TurnEnded
from core.game.moves import mask_of
from core.game.rules import Rules
from tests.unit.core.game_helpers import begun, config


class DoublesAgain(Rules):
    """Classic, but an unusable double rolls again in every format (as such a rule would)."""

    __slots__ = ()

    def rolls_again(self, dice: Sequence[int], *, long_game: bool) -> bool:
        return len(set(dice)) < len(dice)


AGAIN = DoublesAgain()


@pytest.mark.parametrize(("rules", "again"), [(AGAIN, True), (Rules(), False)])
def test_the_engine_grants_the_roll_in_a_rounds_match(rules: Rules, again: bool) -> None:
    state = begun("Ann", cfg=config("rounds:1", rules)).evolve(board=mask_of([1]))
    _, events = apply(state, Roll("ann", count=2), FixedDice([(3, 3)]))
    assert any(isinstance(event, ExtraRoll) for event in events) is again
    assert any(isinstance(event, TurnEnded) for event in events) is not again


def naive(rules: Rules, available: int, count: int | None = None) -> float:
    """The expected score by brute force (of `count` dice for this roll, when given); a stuck
    roll that rolls again is worth the table's value of the board, the best count rolled."""
    if not available:
        return 0.0
    by_count = []
    for dice_count in (count,) if count else rules.dice_choices(available):
        total = 0.0
        rolls = list(product(range(1, 7), repeat=dice_count))
        for dice in rolls:
            moves = rules.allows(available, dice).moves
            if moves:
                total += min(naive(rules, available ^ move) for move in moves)
            elif rules.rolls_again(dice, long_game=False):
                total += solve(rules, Objective.SUM).value(available)
            else:
                total += rules.score(available)
        by_count.append(total / len(rolls))
    return min(by_count)


@pytest.mark.parametrize("tiles", [[9, 1], [5, 3, 1], [6, 2], [4, 1]])
def test_the_solver_counts_on_the_roll(tiles: list[int]) -> None:
    """The table is the fixed point of the recursion, each dice count's value too, and the
    extra roll is worth something where two dice must be rolled."""
    available = mask_of(tiles)
    table = solve(AGAIN, Objective.SUM)
    assert table.value(available) == pytest.approx(naive(AGAIN, available), abs=1e-9)
    for count in AGAIN.dice_choices(available):
        expected = naive(AGAIN, available, count)
        assert table.dice_value(available, count) == pytest.approx(expected, abs=1e-9)
    without = solve(Rules(), Objective.SUM).value(available)
    assert table.value(available) < without or AGAIN.one_die_allowed(available)


def test_the_exact_chance_to_shut_agrees_with_the_table() -> None:
    exact = exact_p_shut(AGAIN)
    assert isinstance(exact, Fraction) and exact > exact_p_shut(Rules())
    assert float(exact) == pytest.approx(solve(AGAIN, Objective.SHUT).value(AGAIN.full_mask))


@pytest.mark.parametrize("policy", list(Policy))
def test_played_turns_agree_with_the_prediction(policy: Policy) -> None:
    result = simulate(AGAIN, 600, policy, 5, Objective.SUM)
    assert result.score_z_score is not None and abs(result.score_z_score) < 4


def test_the_review_goes_on_after_the_roll() -> None:
    steps = [Step((3, 3), 0), Step((1,), mask_of([1]))]
    assert review_from(solve(AGAIN, Objective.SUM), mask_of([1]), steps).count == 2
    with pytest.raises(InvalidTurn):
        review_from(solve(Rules(), Objective.SUM), mask_of([1]), steps)
