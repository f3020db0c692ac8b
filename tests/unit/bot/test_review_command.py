"""`shutbox review`: a written turn graded against optimal play, as JSON or text."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from core.game.ai.review import parse_turn, review_json
from core.game.ai.review_long import review_long_turn
from core.game.ai.solver_long import CLOSER, OPENER
from core.game.moves import mask_of
from core.game.rules import Rules

TURN = "4-3:7 6-2:8 2-1:2+1 5-4:9 6-5:6+5 2-2:4"
FULL = Rules().full_mask


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["review", *argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def test_review_json_grades_every_decision(capsys: pytest.CaptureFixture[str]) -> None:
    """The JSON lists each decision with roll, move, best and loss, then accuracy and total loss."""
    data = run_json(capsys, "--turn", TURN)
    assert set(data) == {"accuracy", "expected_loss", "decisions"}
    decisions = data["decisions"]
    assert isinstance(decisions, list)
    assert decisions[0] == {"roll": "4-3", "move": "7", "best": "7", "loss": 0.0}
    assert decisions[2]["roll"] == "2-1" and decisions[2]["move"] == "2+1"
    assert decisions[2]["best"] == "3" and decisions[2]["loss"] > 0
    assert {"roll": "dice", "move": "2", "best": "2", "loss": 0.0} in decisions
    best = sum(d["loss"] == 0.0 for d in decisions)
    assert data["accuracy"] == round(100 * best / len(decisions), 2)
    assert data["expected_loss"] == pytest.approx(sum(d["loss"] for d in decisions), abs=1e-5)


def test_the_objective_changes_the_grading(capsys: pytest.CaptureFixture[str]) -> None:
    """2+1 on a 2-1 loses points under score, but much less as a chance to shut."""
    score = run_json(capsys, "--turn", TURN)
    shut = run_json(capsys, "--turn", TURN, "--objective", "shut")
    assert shut["expected_loss"] < score["expected_loss"]  # type: ignore[operator]
    assert run_json(capsys, "--turn", TURN, "--objective", "score") == score


def test_rules_options_select_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """Under the sailors' rule a 4-3 may close 7 or 4+3 only."""
    data = run_json(capsys, "--preset", "sailors", "--turn", "4-3:4+3 6-2:8")
    assert data["decisions"][0]["best"] in ("7", "4+3")  # type: ignore[index]
    assert main(["review", "--preset", "sailors", "--turn", "4-3:5+2"]) == 2


@pytest.mark.parametrize(
    ("turn", "line"),
    [
        ("4-3:7 6-2:7", "Step 2 (6-2:7): that is not a legal move for this roll"),
        ("4-3:7 6-2:x", "Step 2 (“6-2:x”) can’t be read"),
        ("4-³:7", "Step 1 (“4-³:7”) can’t be read"),  # a digit to isdigit(), not to int()
        ("4-3:①", "Step 1 (“4-3:①”) can’t be read"),
        ("4:4", "Step 1 (4:4): 2 dice may be rolled there"),
        ("", "The turn has no steps"),
    ],
)
def test_an_illegal_step_is_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], turn: str, line: str
) -> None:
    """The error names the step, on one line of stderr, and nothing is printed to stdout."""
    assert main(["review", "--turn", turn, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"shutbox: {line}")
    assert captured.err.count("\n") == 1


def test_review_text_ends_with_the_totals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--turn", TURN]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("Accuracy ")
    assert any("best 3, loss" in line for line in out)
    assert out[-1].endswith(" points")


LONG_TURN = "4-3:7 6-2:8 2-1:2+1 5-4:9"


def test_objective_win_grades_a_long_game_turn(capsys: pytest.CaptureFixture[str]) -> None:
    """`--objective win` grades the closer's turn by the chance to win the long game, a
    probability in the JSON; the text says the unit."""
    data = run_json(capsys, "--objective", "win", "--turn", LONG_TURN)
    expected = review_long_turn(Rules(), Rules().full_mask, CLOSER, parse_turn(LONG_TURN))
    assert data == review_json(expected)
    assert data["accuracy"] == 75.0 and 0 < data["expected_loss"] < 1  # type: ignore[operator]
    assert main(["review", "--objective", "win", "--turn", LONG_TURN]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(" of the chance to win")


def test_the_opener_is_reviewed_from_the_tiles_open(capsys: pytest.CaptureFixture[str]) -> None:
    """`--seat 1 --open 9+8+7+6+5+4` reviews the opener, who may open 1, 2 and 3 for a 2-1."""
    argv = ("--objective", "win", "--seat", "1", "--open", "9+8+7+6+5+4", "--turn", "2-1:3")
    data = run_json(capsys, *argv)
    opened = FULL ^ mask_of([1, 2, 3])
    expected = review_long_turn(Rules(), opened, OPENER, parse_turn("2-1:3"))
    assert data == review_json(expected)
    assert [d["roll"] for d in data["decisions"]] == ["dice", "2-1"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (("--seat", "1"), "--seat chooses a side of the long game: add --objective win"),
        (("--objective", "win", "--seat", "1"), "the opener opens closed tiles: say which"),
        (("--objective", "win", "--open", "9+9"), "--open takes different tiles from 1 to 9"),
        (("--objective", "win", "--open", "10"), "--open takes different tiles from 1 to 9"),
        (("--objective", "win", "--seat", "1", "--open", "9+8+7+6+5+4+3+2+1"),
         "The turn starts with nothing left to play"),
    ],
)  # fmt: skip
def test_a_long_game_position_that_makes_no_sense_is_refused(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], line: str
) -> None:
    assert main(["review", *argv, "--turn", "2-1:3"]) == 2
    assert capsys.readouterr().err.startswith(f"shutbox: {line}")
