"""Optimal play in the long game: win chances, both sides' symmetry, the optimality equation,
and legal best moves."""

from __future__ import annotations

from itertools import product

import pytest

from core.game.ai.solver_long import CLOSER, OPENER, LongTable, solve_long
from core.game.moves import mask_of
from core.game.rules import PRESETS, CloseRule, Rules
from tests.unit.core.rule_sets import random_states

SAILORS_LAST_DIE = Rules(close=CloseRule.SUM_OR_DICE, last_die=True)
SEPARATE = Rules(close=CloseRule.SEPARATE)
LONG_RULES = [PRESETS["classic"], SAILORS_LAST_DIE]


@pytest.mark.parametrize("rules", LONG_RULES)
def test_long_game_win_chances_are_probabilities(rules: Rules) -> None:
    """Every long-game win chance lies in [0, 1]."""
    table = solve_long(rules)
    for open_mask in range(rules.full_mask + 1):
        for mover in (CLOSER, OPENER):
            assert 0.0 <= table.win_chance(open_mask, mover) <= 1.0 + 1e-12


@pytest.mark.parametrize("rules", LONG_RULES)
def test_long_game_is_the_same_game_for_both_sides(rules: Rules) -> None:
    """The closer with some tiles open stands as the opener does with those tiles closed."""
    table = solve_long(rules)
    for open_mask in range(1, rules.full_mask):
        flipped = rules.full_mask ^ open_mask
        assert table.win_chance(open_mask, CLOSER) == table.win_chance(flipped, OPENER)


@pytest.mark.parametrize("rules", LONG_RULES)
def test_long_game_chances_satisfy_the_optimality_equation(rules: Rules) -> None:
    """Each chance equals the best dice count's average over rolls of the best move's chance."""
    table = solve_long(rules)
    for open_mask, mover in [
        (rules.full_mask, CLOSER),
        (0b000111001, OPENER),
        (0b000010110, CLOSER),
    ]:
        assert table.win_chance(open_mask, mover) == pytest.approx(
            _bellman(table, rules, open_mask, mover), abs=1e-9
        )


def _bellman(table: LongTable, rules: Rules, open_mask: int, mover: int) -> float:
    """One step of the long game's recursion, from `options` and the table's other chances."""
    mine = table.available(open_mask, mover)
    here = table.win_chance(open_mask, mover)
    handed_over = 1.0 - table.win_chance(open_mask, 1 - mover)
    by_count = []
    for count in rules.dice_choices(mine):
        rolls = list(product(range(1, 7), repeat=count))
        total = 0.0
        for dice in rolls:
            ranked = table.move_values(open_mask, mover, dice)
            if ranked:
                total += ranked[0][1]
            else:
                total += here if rules.rolls_again(dice, long_game=True) else handed_over
        by_count.append(total / len(rolls))
    return max(by_count)


def test_long_game_winning_move_is_certain() -> None:
    """A move that closes the last open tile wins for sure."""
    table = solve_long(PRESETS["classic"])
    assert table.move_values(mask_of([9]), CLOSER, (4, 5)) == [(mask_of([9]), 1.0)]
    assert table.best_move(mask_of([9]), CLOSER, (4, 5)) == mask_of([9])


def test_long_game_closer_cannot_win_when_high_tiles_never_close() -> None:
    """With dice used separately 7, 8 and 9 never close, so the closer's chance is nil."""
    table = solve_long(SEPARATE)
    assert table.win_chance(SEPARATE.full_mask, CLOSER) < 1e-9


@pytest.mark.parametrize("rules", LONG_RULES)
def test_long_game_best_move_is_always_legal(rules: Rules) -> None:
    """The long game's best move flips a legal set of the mover's tiles, or is None."""
    table = solve_long(rules)
    for open_mask, dice in random_states(rules, 200, seed=11):
        for mover in (CLOSER, OPENER):
            mine = table.available(open_mask, mover)
            if not mine or len(dice) not in rules.dice_choices(mine):
                continue
            legal = rules.allows(mine, dice).moves
            move = table.best_move(open_mask, mover, dice)
            assert (move is None) if not legal else (move in legal)
            assert table.best_dice(open_mask, mover) in rules.dice_choices(mine)
