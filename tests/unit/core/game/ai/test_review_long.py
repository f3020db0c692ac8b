"""Review of the long game: each decision graded by the chance to win the match."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game.ai.review import Aim, Decision, InvalidTurn, Kind, Step, parse_turn, review_json
from core.game.ai.review_long import grade_long_dice, grade_long_move, review_long_turn
from core.game.ai.solver import Objective
from core.game.ai.solver_long import CLOSER, OPENER, solve_long
from core.game.moves import mask_of
from core.game.rules import PRESETS, CloseRule, Rules

CLASSIC = Rules()
FULL = CLASSIC.full_mask
ONE = mask_of([1])
ONE_TO_THREE = mask_of([1, 2, 3])


def test_two_dice_on_tile_one_alone_lose_five_36ths_of_the_openers_chance() -> None:
    """The closer with only tile 1 open: one die wins with 1/6 and otherwise hands the box
    over (the opener then wins with y), so the closer's chance is 1/6 + 5/6 (1 - y). Two dice
    can never close 1: a double rolls again, anything else hands over, which is worth
    1/36 + 35/36 (1 - y). Rolling two loses the difference, 5/36 y (worked out by hand)."""
    table = solve_long(CLASSIC)
    opener = table.win_chance(ONE, OPENER)
    assert table.win_chance(ONE, CLOSER) == pytest.approx(1 / 6 + 5 / 6 * (1 - opener), abs=1e-12)
    review = review_long_turn(CLASSIC, ONE, CLOSER, [Step((1, 2), 0)])
    (dice,) = review.decisions
    assert (dice.kind, dice.chosen, dice.best) == (Kind.DICE, 2, 1)
    assert dice.loss == pytest.approx(5 / 36 * opener, abs=1e-12)
    assert review.accuracy == 0.0


def test_one_die_on_tile_three_alone_is_best_by_a_twelfth_of_the_openers_chance() -> None:
    """Tile 3 alone: one die wins with 6/36 and hands over with 30/36; two dice win with 2/36
    (1-2, 2-1), roll again on the 6/36 doubles and hand over with 28/36, which is
    3/36 + 33/36 (1 - y): one die is better by 3/36 y = y/12."""
    table = solve_long(CLASSIC)
    three = mask_of([3])
    opener = table.win_chance(three, OPENER)
    decision = grade_long_dice(table, three, CLOSER, 2)
    assert decision is not None and decision.best == 1
    assert decision.loss == pytest.approx(opener / 12, abs=1e-12)
    assert grade_long_dice(table, three, CLOSER, 1) == Decision(Kind.DICE, (), 1, 1, 0.0)


def test_a_move_is_graded_by_the_chance_of_the_position_it_leaves() -> None:
    """Tiles 1-3 open, one die shows 3: closing 3 leaves 1+2, closing 2+1 leaves 3; the loss of
    the worse is the gap between the closer's chances from those two positions."""
    table = solve_long(CLASSIC)
    keep_small = table.win_chance(mask_of([1, 2]), CLOSER)
    keep_three = table.win_chance(mask_of([3]), CLOSER)
    three, two_one = mask_of([3]), mask_of([1, 2])
    better, worse = (three, two_one) if keep_small > keep_three else (two_one, three)
    decision = grade_long_move(table, ONE_TO_THREE, CLOSER, Step((3,), worse))
    assert decision is not None
    assert (decision.kind, decision.chosen, decision.best) == (Kind.MOVE, worse, better)
    assert decision.loss == pytest.approx(abs(keep_small - keep_three), abs=1e-12)
    best = grade_long_move(table, ONE_TO_THREE, CLOSER, Step((3,), better))
    assert best is not None and best.was_best and best.loss == 0.0


def test_the_opener_is_graded_as_the_closer_on_the_mirrored_box() -> None:
    """Opening tiles 1-3 of a box with only those closed is the closer's position of 1-3 open."""
    table = solve_long(CLASSIC)
    for dice in [(3,), (2, 1), (4, 2), (1, 1)]:
        for move in CLASSIC.allows(ONE_TO_THREE, dice).moves:
            closing = grade_long_move(table, ONE_TO_THREE, CLOSER, Step(dice, move))
            opening = grade_long_move(table, FULL ^ ONE_TO_THREE, OPENER, Step(dice, move))
            assert closing == opening
        for count in (1, 2):
            assert grade_long_dice(table, ONE_TO_THREE, CLOSER, count) == grade_long_dice(
                table, FULL ^ ONE_TO_THREE, OPENER, count
            )


def test_a_choice_that_wins_at_once_is_best() -> None:
    """Tiles 1 and 2 open, one die shows 3: 2+1 shuts the box and wins, the only move."""
    table = solve_long(CLASSIC)
    assert table.move_values(mask_of([1, 2]), CLOSER, (3,)) == [(mask_of([1, 2]), 1.0)]
    review = review_long_turn(CLASSIC, mask_of([1, 2]), CLOSER, parse_turn("3:2+1"))
    assert review.decisions[0].kind is Kind.DICE  # one or two dice was the only choice


def test_a_first_long_turn_grades_like_the_command_line_example() -> None:
    """From the full box, 2+1 for a 2-1 costs the closer about 5.3 points of their chance."""
    review = review_long_turn(CLASSIC, FULL, CLOSER, parse_turn("4-3:7 6-2:8 2-1:2+1 5-4:9"))
    data = review_json(review)
    assert data["accuracy"] == 75.0
    wrong = review.decisions[2]
    assert (wrong.chosen_label, wrong.best_label) == ("2+1", "3")
    table = solve_long(CLASSIC)
    left = FULL ^ mask_of([7, 8])
    assert wrong.loss == pytest.approx(
        table.win_chance(left ^ mask_of([3]), CLOSER)
        - table.win_chance(left ^ mask_of([1, 2]), CLOSER),
        abs=1e-12,
    )


def test_an_unusable_double_gives_another_roll_and_anything_else_ends_the_turn() -> None:
    """Only 9 open: 1-1 closes nothing but rolls again; 2-1 closes nothing and hands over."""
    nine = mask_of([9])
    assert review_long_turn(CLASSIC, nine, CLOSER, parse_turn("1-1:- 5-4:9")).decisions == ()
    with pytest.raises(InvalidTurn) as caught:
        review_long_turn(CLASSIC, nine, CLOSER, parse_turn("2-1:- 5-4:9"))
    assert (caught.value.key, caught.value.params["step"]) == ("error.review.after_end", 2)


def test_winning_and_the_last_die_end_the_turn() -> None:
    """Closing the last tile wins; a last-die close hands the box over: no step may follow."""
    with pytest.raises(InvalidTurn) as caught:
        review_long_turn(CLASSIC, mask_of([9]), CLOSER, parse_turn("5-4:9 1-1:-"))
    assert caught.value.params["step"] == 2
    last_die = Rules(close=CloseRule.SUM_OR_DICE, last_die=True)
    with pytest.raises(InvalidTurn) as caught:
        review_long_turn(last_die, last_die.full_mask, CLOSER, parse_turn("6-6:6 4-3:7"))
    assert (caught.value.key, caught.value.params["step"]) == ("error.review.after_end", 2)


def test_the_opener_may_only_open_closed_tiles() -> None:
    """With only 7 closed the opener may open 7 for a 4-3, not the open 4 and 3."""
    only_seven_closed = FULL ^ mask_of([7])
    review = review_long_turn(CLASSIC, only_seven_closed, OPENER, parse_turn("4-3:7"))
    assert review.decisions == ()  # 7 was the only move, and it wins
    with pytest.raises(InvalidTurn) as caught:
        review_long_turn(CLASSIC, only_seven_closed, OPENER, parse_turn("4-3:4+3"))
    assert (caught.value.key, caught.value.params["step"]) == ("error.review.move", 1)


@pytest.mark.parametrize(("board", "mover"), [(0, CLOSER), (FULL, OPENER)])
def test_a_box_already_won_has_no_turn_to_review(board: int, mover: int) -> None:
    with pytest.raises(InvalidTurn) as caught:
        review_long_turn(CLASSIC, board, mover, parse_turn("4-3:7"))
    assert caught.value.key == "error.review.won"


def test_the_aim_of_a_review() -> None:
    """Each one-turn objective has its aim; chances (shut, win) are shown in percentage points."""
    assert [Aim.of(objective) for objective in Objective] == [Aim.SUM, Aim.COUNT, Aim.SHUT]
    assert [aim for aim in Aim if aim.is_chance] == [Aim.SHUT, Aim.WIN]


Turn = tuple[int, int, list[Step]]  # the open tiles when it began, the mover, its steps
MAX_TURNS = 200  # a long game between perfect players ends long before


def _optimal_long_game(rules: Rules, seed: int) -> list[Turn]:
    """A whole long game played by the long table's policy on both sides, with seeded dice."""
    table, rng = solve_long(rules), random.Random(seed)
    board, mover, turns = rules.full_mask, CLOSER, []
    for _ in range(MAX_TURNS):
        turn: Turn = (board, mover, [])
        turns.append(turn)
        while True:
            dice = tuple(rng.randint(1, 6) for _ in range(table.best_dice(board, mover)))
            mine = table.available(board, mover)
            move = table.best_move(board, mover, dice) or 0
            turn[2].append(Step(dice, move))
            board ^= move
            if move and move == mine:
                return turns  # the mover won
            stuck = not move and not rules.rolls_again(dice, long_game=True)
            if stuck or rules.allows(mine, dice).ends_turn:
                break
        mover = 1 - mover
    return turns


LONG_RULE_SETS = [*PRESETS.values(), Rules(close=CloseRule.SUM_OR_DICE, last_die=True)]


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(LONG_RULE_SETS), seed=st.integers(0, 2**32))
def test_optimal_long_play_always_reviews_at_100_percent(rules: Rules, seed: int) -> None:
    """Every turn of a long game played perfectly by both sides has no loss, all best."""
    for board, mover, steps in _optimal_long_game(rules, seed):
        review = review_long_turn(rules, board, mover, steps)
        assert review.expected_loss == 0.0
        assert review.accuracy in (None, 100.0)
