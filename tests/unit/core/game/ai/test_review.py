"""Review: each decision of a turn graded against exact optimal play."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game.ai.review import (
    Decision,
    InvalidTurn,
    Kind,
    Step,
    objective_for,
    parse_turn,
    review_from,
    review_json,
    review_turn,
)
from core.game.ai.solver import Objective, solve
from core.game.moves import mask_of
from core.game.rules import PRESETS, CloseRule, Rules, Scoring

CLASSIC = Rules()
ONE_TWO = mask_of((1, 2))
ONE_TWO_THREE = mask_of((1, 2, 3))


def approx(value: Fraction) -> object:
    return pytest.approx(float(value), abs=1e-12)


def test_rolling_two_dice_on_tiles_one_and_two_loses_77_216_of_a_point() -> None:
    """Tiles 1 and 2: one die leaves 69/36 on average, two dice 599/216 (worked out by hand)."""
    review = review_from(solve(CLASSIC, Objective.SUM), ONE_TWO, [Step((1, 2), ONE_TWO)])
    dice = review.decisions[0]
    assert (dice.kind, dice.chosen, dice.best) == (Kind.DICE, 2, 1)
    assert dice.loss == approx(Fraction(599, 216) - Fraction(69, 36))


def test_for_the_chance_to_shut_one_die_is_best_on_one_and_two() -> None:
    """One die shuts 1+2 with chance 48/216, two dice only 13/216: two dice lose 35/216."""
    table = solve(CLASSIC, Objective.SHUT)
    review = review_from(table, ONE_TWO, [Step((1, 2), ONE_TWO)])
    dice = review.decisions[0]
    assert (dice.chosen, dice.best) == (2, 1)
    assert dice.loss == approx(Fraction(35, 216))


def test_closing_two_and_one_for_a_three_costs_seven_twelfths_of_a_point() -> None:
    """Tiles 1-3, one die shows 3: closing 3 leaves 69/36, closing 2+1 leaves 3's 90/36."""
    review = review_from(solve(CLASSIC, Objective.SUM), ONE_TWO_THREE, [Step((3,), ONE_TWO)])
    move = review.decisions[-1]
    assert (move.kind, move.chosen_label, move.best_label) == (Kind.MOVE, "2+1", "3")
    assert move.loss == approx(Fraction(7, 12))


def test_counting_tiles_makes_two_and_one_the_best_close_for_a_three() -> None:
    """Under `count` 2+1 leaves 30/36 tiles expected, 3 leaves 46/36: closing 3 loses 4/9."""
    review = review_from(solve(CLASSIC, Objective.COUNT), ONE_TWO_THREE, [Step((3,), 0b100)])
    move = review.decisions[-1]
    assert (move.chosen_label, move.best_label) == ("3", "2+1")
    assert move.loss == approx(Fraction(4, 9))


def test_accuracy_is_the_share_of_best_choices() -> None:
    """Three decisions, one of them a mistake: 66.7 %, and the loss is that mistake's."""
    rules = Rules()
    steps = parse_turn("4-3:7 6-2:8 2-1:2+1 5-4:9")
    review = review_turn(rules, Objective.SUM, steps)
    assert [d.was_best for d in review.decisions] == [True, True, False, True]
    assert review.accuracy == pytest.approx(75.0)
    wrong = review.decisions[2]
    table = solve(rules, Objective.SUM)
    left = rules.full_mask ^ mask_of((7, 8))
    assert wrong.loss == pytest.approx(table.value(left ^ 0b11) - table.value(left ^ 0b100))
    assert review.expected_loss == pytest.approx(wrong.loss)


def test_ties_count_as_best_and_show_the_players_own_choice() -> None:
    """Equal values are both best: no loss, and the player's move is the one shown as best."""
    table = solve(CLASSIC, Objective.SHUT)
    # With only 9 and 1+... open a 4-3 on a full board: check every tied move grades as best.
    for move, value in table.move_values(CLASSIC.full_mask, (4, 3)):
        review = review_from(table, CLASSIC.full_mask, [Step((4, 3), move)])
        best_value = table.move_values(CLASSIC.full_mask, (4, 3))[0][1]
        assert review.decisions[0].was_best == (abs(value - best_value) <= 1e-9)
        if review.decisions[0].was_best:
            assert review.decisions[0].best == move


@pytest.mark.parametrize(
    ("rules", "turn", "decisions"),
    [
        (Rules(close=CloseRule.ANY), "4-3:4+3 6-5:6+5", 2),
        (Rules(close=CloseRule.SUM_OR_DICE), "4-3:4+3 6-2:8 5-1:6", 3),
        (Rules(close=CloseRule.DICE), "4-3:4 6-2:8 3-1:3+1", 3),
        (Rules(close=CloseRule.SEPARATE), "4-3:3 6-2:6+2 5-1:5", 3),
    ],
)
def test_every_close_rule_grades_against_its_own_table(
    rules: Rules, turn: str, decisions: int
) -> None:
    """Each decision's loss is the gap to the best legal option of that rule."""
    table = solve(rules, Objective.SUM)
    review = review_turn(rules, Objective.SUM, parse_turn(turn))
    moves = [d for d in review.decisions if d.kind is Kind.MOVE]
    assert len(moves) == decisions
    available = rules.full_mask
    for step in parse_turn(turn):
        ranked = table.move_values(available, step.dice)
        graded = next((d for d in moves if d.roll == step.dice and d.chosen == step.move), None)
        if len(ranked) > 1:
            assert graded is not None
            assert graded.loss == pytest.approx(dict(ranked)[step.move] - ranked[0][1], abs=1e-9)
        available ^= step.move
    assert review.accuracy == pytest.approx(100.0 * sum(d.was_best for d in review.decisions)
                                            / len(review.decisions))  # fmt: skip


def test_the_sailors_rule_refuses_the_sum_once_seven_to_nine_are_shut() -> None:
    """Source 003: with 7-8-9 shut a 4-1 may only close 4 and 1, so 5 is an illegal step."""
    with pytest.raises(InvalidTurn) as caught:
        review_turn(PRESETS["sailors"], Objective.SUM, parse_turn("5-4:9 6-2:8 4-3:7 4-1:5"))
    assert (caught.value.key, caught.value.params["step"]) == ("error.review.move", 4)


def test_a_last_die_close_ends_the_turn() -> None:
    """Last-die: 6-6 closes the 6 and the turn is over; a further step is refused."""
    rules = Rules(close=CloseRule.SUM_OR_DICE, last_die=True)
    assert review_turn(rules, Objective.SUM, parse_turn("6-6:6")).decisions == ()
    with pytest.raises(InvalidTurn) as caught:
        review_turn(rules, Objective.SUM, parse_turn("6-6:6 4-3:7"))
    assert (caught.value.key, caught.value.params["step"]) == ("error.review.after_end", 2)


@pytest.mark.parametrize(
    ("turn", "key", "step"),
    [
        ("", "error.review.empty", None),
        ("4-3", "error.review.syntax", 1),
        ("4-3:7 7-1:8", "error.review.syntax", 2),
        ("4-3:7 6-2:x", "error.review.syntax", 2),
        ("4-3:7+7", "error.review.syntax", 1),
        ("4-3:6", "error.review.move", 1),
        ("4-3:-", "error.review.move", 1),
        ("4:4", "error.review.dice", 1),
        ("4-3-1:8", "error.review.dice", 1),
        ("6-3:9 6-2:8 4-3:7 6-6:6+5+1 5-5:- 1-1:2", "error.review.after_end", 6),
    ],
)
def test_a_bad_or_illegal_step_is_named(turn: str, key: str, step: int | None) -> None:
    """Each unreadable or impossible step raises one error naming it."""
    with pytest.raises(InvalidTurn) as caught:
        review_turn(CLASSIC, Objective.SUM, parse_turn(turn))
    assert caught.value.key == key
    assert caught.value.params.get("step") == step


def test_the_json_form_lists_dice_choices_before_their_roll() -> None:
    """A dice choice is `"roll": "dice"` with the counts as text, then the roll's own decision."""
    turn = "4-3:7 6-2:8 5-4:9 6-5:6+5 2-2:4 2-1:3"
    data = review_json(review_turn(CLASSIC, Objective.SUM, parse_turn(turn)))
    rolls = [d["roll"] for d in data["decisions"]]  # type: ignore[attr-defined, index]
    assert rolls == ["4-3", "6-2", "5-4", "dice", "6-5", "dice", "2-2", "dice", "2-1"]
    assert data["decisions"][3]["move"] == "2"  # type: ignore[index]
    assert data["decisions"][8]["move"] == "3"  # type: ignore[index]


def test_the_objective_follows_the_scoring() -> None:
    assert objective_for(Rules()) is Objective.SUM
    assert objective_for(Rules(scoring=Scoring.COUNT)) is Objective.COUNT


def _optimal_turn(rules: Rules, objective: Objective, seed: int) -> list[Step]:
    """A whole turn played by the table's policy with seeded dice."""
    table, dice_rng = solve(rules, objective), random.Random(seed)
    steps, available = [], rules.full_mask
    while available:
        count = table.best_dice(available)
        dice = tuple(dice_rng.randint(1, 6) for _ in range(count))
        found = rules.allows(available, dice)
        move = table.best_move(available, dice) or 0
        steps.append(Step(dice, move))
        if not move or found.ends_turn:
            break
        available ^= move
    return steps


RULE_SETS = [*PRESETS.values(), Rules(close=CloseRule.SEPARATE),
             Rules(close=CloseRule.SUM_OR_DICE, last_die=True)]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    rules=st.sampled_from(RULE_SETS),
    objective=st.sampled_from(list(Objective)),
    seed=st.integers(0, 2**32),
)
def test_optimal_play_always_reviews_at_100_percent(
    rules: Rules, objective: Objective, seed: int
) -> None:
    """A turn played by the optimal policy has no loss and every decision is best."""
    review = review_turn(rules, objective, _optimal_turn(rules, objective, seed))
    assert review.expected_loss == 0.0
    assert all(decision.was_best for decision in review.decisions)
    assert review.accuracy in (None, 100.0)


def test_a_best_choice_is_kept_short() -> None:
    """Most choices are the best one: the record keeps only the roll and the choice."""
    assert Decision(Kind.MOVE, (5, 3), 128, 128, 0).to_str() == "m53:128"
    assert Decision(Kind.DICE, (), 1, 2, 0.5).to_str() == "d:1:2:0.5"


def test_a_decision_labels_dice_counts_and_moves() -> None:
    assert Decision(Kind.DICE, (), 1, 2, 0.5).chosen_label == "1"
    assert Decision(Kind.MOVE, (4, 3), 0b1000001, 0b1000000, 0.5).chosen_label == "7+1"


def test_a_decision_survives_its_text_form() -> None:
    """What a game record keeps reads back as the same decision."""
    for decision in (
        Decision(Kind.DICE, (), 1, 2, 0.384321),
        Decision(Kind.MOVE, (6, 2), 128, 34, 0),
        Decision(Kind.MOVE, (5, 3), 128, 128, 0),
    ):
        again = Decision.from_str(decision.to_str())
        assert (again.kind, again.roll, again.chosen, again.best) == (
            decision.kind,
            decision.roll,
            decision.chosen,
            decision.best,
        )
        assert again.loss == pytest.approx(decision.loss, rel=1e-5)
