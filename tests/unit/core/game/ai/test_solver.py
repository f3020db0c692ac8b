"""The optimal-play solver: published figures, and cross-checks against `Rules.allows` and brute
force over every rule set the options table makes (the long game: test_solver_long.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from itertools import product

import pytest

from core.game.ai.solver import (
    Objective,
    exact_p_shut,
    outcomes_on_boards,
    roll_outcomes,
    solve,
    sorted_rolls,
)
from core.game.moves import mask_of, mask_sums
from core.game.rules import PRESETS, CloseRule, Rules
from tests.unit.core.rule_sets import (
    EVERY_RULE_SET,
    NINE_TILE_RULE_SETS,
    random_states,
    spread_of_boards,
)

SAILORS_LAST_DIE = Rules(close=CloseRule.SUM_OR_DICE, last_die=True)
TWELVE_THREE_DICE = Rules(tiles=12, dice=3)
Group = tuple[int, tuple[int, ...]]


def terminal(objective: Objective, mask: int) -> float:
    if objective is Objective.SHUT:
        return 1.0 if mask == 0 else 0.0
    if objective is Objective.COUNT:
        return float(mask.bit_count())
    return float(mask_sums(12)[mask])


def naive_value(rules: Rules, objective: Objective, available: int) -> float:
    """Expected value by plain recursion over every ordered roll, straight from `options`."""
    best: Callable[..., float] = max if objective is Objective.SHUT else min
    memo: dict[int, float] = {}

    def value(mask: int) -> float:
        if mask == 0:
            return terminal(objective, 0)
        if mask not in memo:
            memo[mask] = best(roll_mean(mask, count) for count in rules.dice_choices(mask))
        return memo[mask]

    def roll_mean(mask: int, count: int) -> float:
        rolls = list(product(range(1, 7), repeat=count))
        return sum(after_roll(mask, dice) for dice in rolls) / len(rolls)

    def after_roll(mask: int, dice: tuple[int, ...]) -> float:
        found = rules.allows(mask, dice)
        if not found.moves:
            return terminal(objective, mask)
        after = (lambda m: terminal(objective, m)) if found.ends_turn else value
        return best(after(mask ^ move) for move in found.moves)

    return value(available)


def test_hard_nine_tiles_shut_chance_is_the_published_figure() -> None:
    """9 tiles, any split, always two dice: P(shut) = 466473281/6530347008 exactly."""
    assert exact_p_shut(PRESETS["hard"]) == Fraction(466473281, 6530347008)


def test_one_die_rule_shut_chance_is_the_published_figure() -> None:
    """9 tiles with the one-die rule (after 7, 8, 9 are shut): P(shut) = 956177159/9795520512."""
    assert exact_p_shut(PRESETS["classic"]) == Fraction(956177159, 9795520512)


@pytest.mark.parametrize("name", ["classic", "hard"])
def test_float_table_agrees_with_the_exact_fraction(name: str) -> None:
    """The float SHUT table gives the exact chance to within rounding."""
    rules = PRESETS[name]
    exact = exact_p_shut(rules)
    assert solve(rules, Objective.SHUT).value(rules.full_mask) == pytest.approx(float(exact), 1e-12)


@pytest.mark.parametrize("rules", NINE_TILE_RULE_SETS, ids=Rules.to_str)
@pytest.mark.parametrize("objective", list(Objective))
def test_value_matches_brute_force_recursion(rules: Rules, objective: Objective) -> None:
    """For a six-tile state the table's value equals a naive expectation over every roll."""
    available = mask_of([9, 8, 6, 4, 2, 1])
    table = solve(rules, objective)
    assert table.value(available) == pytest.approx(naive_value(rules, objective, available), 1e-12)


def test_three_dice_value_matches_brute_force_recursion() -> None:
    """Twelve tiles with three dice: the table agrees with the naive recursion."""
    available = mask_of([12, 11, 7, 5, 3, 1])
    table = solve(TWELVE_THREE_DICE, Objective.SUM)
    expected = naive_value(TWELVE_THREE_DICE, Objective.SUM, available)
    assert table.value(available) == pytest.approx(expected, 1e-12)


@pytest.mark.parametrize("rules", EVERY_RULE_SET, ids=Rules.to_str)
def test_roll_outcomes_agree_with_options_on_every_mask(rules: Rules) -> None:
    """For every rule set the options table makes, the grouped roll outcomes allow exactly what
    `Rules.allows` allows, and roll again where `Rules.rolls_again` says, for every mask (a
    spread of them beyond 9 tiles) and roll, in the long game and the others."""
    boards = spread_of_boards(rules)
    for long_game in (False, True):
        on_boards = outcomes_on_boards(rules, boards, long_game=long_game)
        for mask, choices in zip(boards, on_boards, strict=True):
            for count, outcomes in choices:
                expected = _outcomes_from_allows(rules, mask, count, long_game)
                assert (outcomes.stuck, outcomes.stuck_again) == expected[0], (mask, count)
                assert _normalised(outcomes.moves) == expected[1], (mask, count)
                assert _normalised(outcomes.last_moves) == expected[2], (mask, count)


def test_roll_outcomes_are_the_outcomes_of_each_mask() -> None:
    """The solver's table holds, mask by mask, what the cross-check above asks board by board."""
    classic = PRESETS["classic"]
    for long_game in (False, True):
        table = roll_outcomes(classic, long_game=long_game)
        for mask in range(1, classic.full_mask + 1, 7):
            assert table[mask] == outcomes_on_boards(classic, [mask], long_game=long_game)[0]


def _outcomes_from_allows(
    rules: Rules, mask: int, count: int, long_game: bool
) -> tuple[tuple[int, int], list[Group], list[Group]]:
    """A roll's outcomes counted roll by roll from `Rules.allows` and `Rules.rolls_again`."""
    stuck = stuck_again = 0
    moves: list[Group] = []
    last_moves: list[Group] = []
    for dice, ways in sorted_rolls(count):
        found = rules.allows(mask, dice)
        left = tuple(mask ^ move for move in found.moves)
        if not left:
            stuck += ways
            stuck_again += ways if rules.rolls_again(dice, long_game=long_game) else 0
        else:
            (last_moves if found.ends_turn else moves).append((ways, left))
    return (stuck, stuck_again), _normalised(moves), _normalised(last_moves)


def _normalised(groups: Iterable[Group]) -> list[Group]:
    """Groups merged by what they leave, so grouping by sum or by roll compares equal."""
    merged: dict[tuple[int, ...], int] = {}
    for ways, left in groups:
        key = tuple(sorted(left))
        merged[key] = merged.get(key, 0) + ways
    return sorted((ways, left) for left, ways in merged.items())


@pytest.mark.parametrize("rules", [*NINE_TILE_RULE_SETS, TWELVE_THREE_DICE], ids=Rules.to_str)
@pytest.mark.parametrize("objective", list(Objective))
def test_best_move_is_always_legal(rules: Rules, objective: Objective) -> None:
    """best_move returns one of the legal moves, or None exactly when there is none."""
    table = solve(rules, objective)
    for available, dice in random_states(rules, 300, seed=7):
        legal = rules.allows(available, dice).moves
        move = table.best_move(available, dice)
        assert (move is None) if not legal else (move in legal)


def test_move_values_are_ranked_best_first_with_values_after_the_move() -> None:
    """move_values lists every legal move once, best first, valued at the state it leaves."""
    rules = PRESETS["classic"]
    table = solve(rules, Objective.SUM)
    ranked = table.move_values(rules.full_mask, (4, 5))
    assert sorted(move for move, _ in ranked) == sorted(rules.allows(rules.full_mask, (4, 5)).moves)
    assert [value for _, value in ranked] == sorted(value for _, value in ranked)
    assert all(value == table.value(rules.full_mask ^ move) for move, value in ranked)


def test_last_die_move_is_valued_at_the_end_of_the_turn() -> None:
    """Under last-die a move that ends the turn is worth the score it leaves, not a new roll."""
    table = solve(SAILORS_LAST_DIE, Objective.SUM)
    available = mask_of([6, 3])  # 6-6: no sum tile 12, no pair of a double, so close one 6
    assert SAILORS_LAST_DIE.allows(available, (6, 6)).ends_turn
    assert table.move_values(available, (6, 6)) == [(mask_of([6]), 3.0)]


def test_empty_box_is_shut_for_sure_and_scores_nothing() -> None:
    """With no tile open the chance to shut is 1 and the expected sum and count are 0."""
    rules = PRESETS["classic"]
    assert solve(rules, Objective.SHUT).value(0) == 1.0
    assert solve(rules, Objective.SUM).value(0) == 0.0
    assert solve(rules, Objective.COUNT).value(0) == 0.0


def test_lone_low_tile_calls_for_one_die() -> None:
    """With only tile 1 open, two dice can never close it, so one die is the better roll."""
    table = solve(PRESETS["classic"], Objective.SUM)
    assert table.best_dice(mask_of([1])) == 1
    assert table.dice_value(mask_of([1]), 2) == 1.0
    assert table.value(mask_of([1])) == pytest.approx(5 / 6)


def test_one_die_is_refused_while_a_high_tile_is_open() -> None:
    """dice_value refuses a dice count the rules do not allow there."""
    table = solve(PRESETS["classic"], Objective.SUM)
    assert table.best_dice(mask_of([9, 1])) == 2
    with pytest.raises(ValueError):
        table.dice_value(mask_of([9, 1]), 1)


def test_objective_ignores_the_rules_scoring() -> None:
    """SUM and COUNT optimise the sum and the count whatever the rules score."""
    missionary, classic = PRESETS["missionary"], PRESETS["classic"]
    for objective in (Objective.SUM, Objective.COUNT):
        assert solve(missionary, objective).values == solve(classic, objective).values


def test_tables_are_built_once() -> None:
    """Solving the same rules and objective twice gives the same cached table."""
    assert solve(PRESETS["classic"], Objective.SUM) is solve(PRESETS["classic"], Objective.SUM)


def test_classic_expected_scores() -> None:
    """Classic optimal play: expected sum about 11.009, expected count about 2.153."""
    rules = PRESETS["classic"]
    assert solve(rules, Objective.SUM).value(rules.full_mask) == pytest.approx(11.009209, abs=1e-6)
    assert solve(rules, Objective.COUNT).value(rules.full_mask) == pytest.approx(2.153386, abs=1e-6)
