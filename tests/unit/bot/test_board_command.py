"""`shutbox board`: a PNG of the box from the command line, one line and exit 2 on bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from core.text.drawn import DrawnBoard
from core.text.picture import draw_png


def test_writes_the_picture_of_the_board(tmp_path: Path) -> None:
    """`--tiles 1+4+9 --dice 5-3` draws the classic box with those flaps up and that roll."""
    out = tmp_path / "board.png"
    assert main(["board", "--tiles", "1+4+9", "--dice", "5-3", "-o", str(out)]) == 0
    assert out.read_bytes() == draw_png(DrawnBoard(9, 0b100001001, (5, 3)))


def test_rules_options_choose_the_box(tmp_path: Path) -> None:
    """A preset or --size picks the box; three dice, the player and the pot are drawn."""
    out = tmp_path / "twelve.png"
    argv = ["board", "--preset", "twelve", "--tiles", "none", "--dice", "6-2-5",
            "--player", "Zoë", "--pot", "120", "-o", str(out)]  # fmt: skip
    assert main(argv) == 0
    assert out.read_bytes() == draw_png(DrawnBoard(12, 0, (6, 2, 5), "Zoë", 120))
    assert main(["board", "--size", "10", "-o", str(out)]) == 0
    assert out.read_bytes() == draw_png(DrawnBoard(10, 0x3FF))


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--tiles", "1+4+13"], "shutbox: --tiles: 13 is not a flap of a 9-flap box (1 to 9)"),
        (
            ["--tiles", "one"],
            "shutbox: --tiles: write numbers joined by + or -, e.g. 1+4+9, not 'one'",
        ),
        (["--dice", "7-3"], "shutbox: --dice: a die shows 1 to 6, not 7-3"),
        (["--dice", "1-1-1-1"], "shutbox: --dice: a roll has 1 to 3 dice, not 4"),
        (
            ["--dice", "1-2-3"],
            "shutbox: Three dice need the 12-tile box, not 9 tiles. Use 2 "
            "dice, or choose 12 tiles.",
        ),
        (
            ["--preset", "bogus"],
            "shutbox: Unknown preset “bogus”. Try one of: classic, hard, "
            "sailors, kids, missionary, ten, twelve.",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each mistake is named on one line on stderr; nothing is written."""
    out = tmp_path / "board.png"
    assert main(["board", *argv, "-o", str(out)]) == 2
    assert capsys.readouterr().err == line + "\n"
    assert not out.exists()


def test_an_unwritable_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder that does not exist is reported, not raised."""
    missing = tmp_path / "nowhere" / "board.png"
    assert main(["board", "-o", str(missing)]) == 2
    assert (
        capsys.readouterr().err == f"shutbox: cannot write {missing}: No such file or directory\n"
    )
