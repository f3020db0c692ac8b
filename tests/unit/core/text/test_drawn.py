"""What a picture shows, and its text form in the picture's URL."""

from __future__ import annotations

import pytest

from core.text.drawn import BadPicture, DrawnBoard, clean_name


@pytest.mark.parametrize(
    "board",
    [
        DrawnBoard(9, 0b111111111, (5, 3), "Åse", None),
        DrawnBoard(10, 0, (), "", 0),
        DrawnBoard(12, 0b101, (1, 2, 6), "Zoë Brontë", 999_999_999),
        DrawnBoard(12, 0xFFF, (4,), "x" * 24, 17),
    ],
)
def test_token_round_trips(board: DrawnBoard) -> None:
    """`from_token(to_token())` gives the same picture back."""
    assert DrawnBoard.from_token(board.to_token()) == board


def test_token_holds_only_what_is_drawn() -> None:
    """The token is tiles, open flaps, dice, pot and the name: `9.1ff.53.-.QcVzZQ`."""
    assert DrawnBoard(9, 0x1FF, (5, 3), "Åse", None).to_token() == "9.1ff.53.-.w4VzZQ"


@pytest.mark.parametrize(
    "token",
    [
        "",
        "9",
        "9.1ff.53.-",
        "11.1ff.53.-.",
        "9.200.53.-.",
        "9.1ff.73.-.",
        "9.1ff.1234.-.",
        "9.1FF.53.-.",
        "9.01ff.53.-.",
        "9.1ff.53.007.",
        "9.1ff.53.-.w4VzZQ==",
        "9.1ff.53.-.%%",
        "9.1ff.53.-.gA",
        "../../etc/passwd",
        "9.1ff.53.-.w4VzZQ.x",
        "9.1ff.53.1000000000.",
    ],
)
def test_a_bad_token_is_refused(token: str) -> None:
    """Anything that is not exactly a token `to_token` writes is a BadPicture (a 400)."""
    with pytest.raises(BadPicture):
        DrawnBoard.from_token(token)


@pytest.mark.parametrize(
    ("tiles", "mask", "dice", "pot"),
    [
        (11, 0, (), None),
        (9, 1 << 9, (), None),
        (9, 0, (7,), None),
        (9, 0, (1, 1, 1, 1), None),
        (9, 0, (), -1),
    ],
)
def test_an_impossible_board_is_refused(
    tiles: int, mask: int, dice: tuple[int, ...], pot: int | None
) -> None:
    """Tiles other than 9, 10, 12, flaps outside the box, dice that are not dice, a negative pot."""
    with pytest.raises(BadPicture):
        DrawnBoard(tiles, mask, dice, "", pot)


def test_names_are_cleaned() -> None:
    """Emoji, joiners and variation selectors go, letters stay, long names are cut."""
    assert clean_name(" 🤖  Åse\u200d 🎲 ") == "Åse"
    assert clean_name("Zoe\u0308") == "Zoë"  # composed
    assert len(clean_name("Ø" * 40)) == 24
    assert DrawnBoard(9, 0, (), "🎲 Ole").player == "Ole"
