"""Legal moves for every close rule agree with brute force over random boards and rolls (SPEC 1)."""

from __future__ import annotations

from itertools import combinations, product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.game.moves import display_order, mask_of, move_label, subsets_with_sum, tiles_of
from core.game.rules import CloseRule, Rules
from tests.unit.core.rule_sets import EVERY_RULE_SET, NINE_TILE_RULE_SETS


def _subsets(tiles: list[int]) -> list[frozenset[int]]:
    return [frozenset(c) for n in range(1, len(tiles) + 1) for c in combinations(tiles, n)]


def _allowed(rules: Rules, subset: frozenset[int], dice: tuple[int, ...], high_done: bool) -> bool:
    """The close rules exactly as the SPEC table words them."""
    if rules.close is CloseRule.ANY:
        return sum(subset) == sum(dice)
    if len(dice) == 1:
        return subset == {dice[0]}
    a, b = dice
    by_sum = subset == {a + b}
    both = a != b and subset == {a, b}
    single = subset in ({a}, {b})
    if rules.close is CloseRule.SUM_OR_DICE:
        # Once 7+ are shut and two dice were chosen, only the two dice's tiles may close.
        return both if (rules.one_die and high_done) else (by_sum or both)
    if rules.close is CloseRule.DICE:
        return by_sum or single or both
    return single or both


def brute_force(rules: Rules, available: int, dice: tuple[int, ...]) -> tuple[set[int], bool]:
    """Every legal move by trying every set of available tiles; and whether it ends the turn."""
    tiles = list(tiles_of(available))
    high_done = not any(t >= 7 for t in tiles)
    moves = {mask_of(sorted(s)) for s in _subsets(tiles) if _allowed(rules, s, dice, high_done)}
    if moves or not (rules.last_die and len(dice) == 2):
        return moves, False
    return {mask_of([d]) for d in dice if d in tiles}, True


@st.composite
def situations(draw: st.DrawFn) -> tuple[Rules, int, tuple[int, ...]]:
    rules = draw(st.sampled_from(EVERY_RULE_SET))
    available = draw(st.integers(min_value=0, max_value=rules.full_mask))
    count = draw(st.sampled_from(rules.dice_choices(available)))
    dice = tuple(draw(st.integers(1, 6)) for _ in range(count))
    return rules, available, dice


@given(situations())
def test_legal_moves_match_brute_force(situation: tuple[Rules, int, tuple[int, ...]]) -> None:
    """For random boards and rolls, tiles 1-12 and every close rule, the moves are exactly right."""
    rules, available, dice = situation
    expected, ends_turn = brute_force(rules, available, dice)
    found = rules.allows(available, dice)
    assert set(found.moves) == expected
    assert found.ends_turn == (ends_turn and bool(expected))
    assert len(found.moves) == len(set(found.moves))
    assert all(move & ~available == 0 for move in found.moves)


def test_the_norwegian_example_of_a_nine() -> None:
    """A roll of 4 and 5 with every tile open offers the eight ways source 001 lists."""
    moves = [move_label(m) for m in Rules().allows(Rules().full_mask, (4, 5)).moves]
    assert moves == ["9", "8+1", "7+2", "6+3", "5+4", "6+2+1", "5+3+1", "4+3+2"]


def test_sailors_first_roll_of_five_five_closes_nothing() -> None:
    """Under the sailors' rule a first roll of 5-5 or 6-6 can close nothing (45 points)."""
    sailors = Rules(close=CloseRule.SUM_OR_DICE)
    assert sailors.allows(sailors.full_mask, (5, 5)).moves == ()
    assert sailors.allows(sailors.full_mask, (6, 6)).moves == ()


def test_sailors_example_from_source_003() -> None:
    """5-3 closes 8; 6-5 closes 5 and 6; 2-6 then closes nothing (8 and 6 are shut)."""
    sailors = Rules(close=CloseRule.SUM_OR_DICE)
    board = sailors.full_mask & ~mask_of([8])
    assert sailors.allows(board, (6, 5)).moves == (mask_of([6, 5]),)
    board &= ~mask_of([6, 5])
    assert sailors.allows(board, (2, 6)).moves == ()
    with_last_die = Rules(close=CloseRule.SUM_OR_DICE, last_die=True)
    assert with_last_die.allows(board, (2, 6)).moves == (mask_of([2]),)
    assert with_last_die.allows(board, (2, 6)).ends_turn


def test_a_double_never_closes_one_tile_twice() -> None:
    """With the dice rules, 3-3 cannot close tile 3 twice."""
    kids = Rules(close=CloseRule.DICE)
    labels = {move_label(m) for m in kids.allows(kids.full_mask, (3, 3)).moves}
    assert labels == {"6", "3"}


def test_moves_are_shown_fewest_tiles_then_highest_first() -> None:
    """Buttons read `9`, `8+1`, `7+2`, `4+3+2`."""
    ordered = display_order([mask_of([4, 3, 2]), mask_of([7, 2]), mask_of([9]), mask_of([8, 1])])
    assert [move_label(m) for m in ordered] == ["9", "8+1", "7+2", "4+3+2"]


@pytest.mark.parametrize("rules", NINE_TILE_RULE_SETS, ids=Rules.to_str)
def test_a_roll_allows_what_the_tiles_it_reads_allow(rules: Rules) -> None:
    """Boards that agree on `Rules.reads` allow the same moves, and so do rolls that share a
    `Rules.roll_key` (the solvers, the policies and the odds share them); `allows_on_boards`
    allows what `allows` does on every board."""
    rolls = [dice for count in (1, rules.dice) for dice in product(range(1, 7), repeat=count)]
    for dice in rolls:
        read, same_key = rules.reads(dice), _first_roll_of_its_key(rules, rolls, dice)
        on_boards = rules.allows_on_boards(dice, range(1, rules.full_mask + 1))
        for board in range(1, rules.full_mask + 1):
            found = rules.allows(board, dice)
            assert rules.allows(board & read, dice) == found, (board, dice)
            assert rules.allows(board, same_key) == found, (board, dice, same_key)
            on_board = on_boards[board]
            assert display_order(on_board.moves) == found.moves, (board, dice)
            assert len(set(on_board.moves)) == len(on_board.moves), (board, dice)
            assert on_board.ends_turn == found.ends_turn, (board, dice)


def _first_roll_of_its_key(
    rules: Rules, rolls: list[tuple[int, ...]], dice: tuple[int, ...]
) -> tuple[int, ...]:
    """The first of the rolls (of one die or of all dice) with the same `Rules.roll_key`."""
    return next(roll for roll in rolls if rules.roll_key(roll) == rules.roll_key(dice))


@pytest.mark.parametrize("rules", [Rules(), Rules(tiles=10), Rules(tiles=12, dice=3)], ids=str)
def test_under_any_a_roll_closes_the_tiles_adding_up_to_its_total(rules: Rules) -> None:
    """The close rule `any`: the moves are the sets of available tiles adding up to the roll's
    total, on one board and on every board at once, and only the total counts."""
    rolls = [(5,), (3, 4), (1, 6), (6, 6), (2, 3, 5)]
    for dice in [roll for roll in rolls if len(roll) in (1, rules.dice)]:
        total = sum(dice)
        assert rules.roll_key(dice) == (total,)
        closer = rules.closing.closer(rules, dice)
        for board in range(0, rules.full_mask + 1, 5):
            expected = set(subsets_with_sum(board, total, rules.tiles))
            assert set(rules.closing.closings(rules, board, dice)) == expected
            assert set(closer(board).moves) == expected
