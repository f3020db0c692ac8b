"""The board picture: the goldens for every box and roll, names without boxes, size, the cache."""

from __future__ import annotations

import pytest
from PIL import Image

from core.text import picture
from core.text.drawn import DrawnBoard
from core.text.picture import board_png, draw_png, drawable, has_glyph
from tests.unit.core.text.pictures import (
    GOLDEN,
    MAX_CHANGED_PIXELS,
    boxes,
    changed_share,
    golden_cases,
    pixels,
)

CASES = golden_cases()
MAX_BYTES = 30_000


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_its_golden(name: str) -> None:
    """Each box (9, 10, 12 flaps; open, half-shut, shut; 0-3 dice) draws as its golden PNG."""
    drawn = pixels(draw_png(CASES[name]))
    golden = Image.open(GOLDEN / f"{name}.png").convert("RGB")
    assert changed_share(drawn, golden) <= MAX_CHANGED_PIXELS


@pytest.mark.parametrize("name", sorted(CASES))
def test_is_a_small_palette_png(name: str) -> None:
    """Every picture is an 8-bit palette PNG of at most 30 KB."""
    png = draw_png(CASES[name])
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) <= MAX_BYTES
    assert picture.frame(CASES[name]).mode == "P"


def test_goldens_tell_the_boxes_apart() -> None:
    """The tolerance is far below the difference one flap, one die or one pip makes."""
    base = DrawnBoard(9, boxes(9)["open"], (6, 2), "Åse", None)
    for changed in (
        DrawnBoard(9, boxes(9)["open"] & ~(1 << 4), (6, 2), "Åse", None),  # flap 5 tipped down
        DrawnBoard(9, boxes(9)["open"], (6, 3), "Åse", None),  # one pip more
        DrawnBoard(9, boxes(9)["open"], (6,), "Åse", None),  # one die fewer
        DrawnBoard(9, boxes(9)["open"], (6, 2), "Åsa", None),  # another player
        DrawnBoard(9, boxes(9)["open"], (6, 2), "Åse", 0),  # a pot
    ):
        assert changed_share(pixels(draw_png(base)), pixels(draw_png(changed))) > MAX_CHANGED_PIXELS


def test_a_flap_tips_down_only_in_its_own_column() -> None:
    """Shutting flap 5 changes the picture inside flap 5's column and nowhere else."""
    from PIL import ImageChops

    from core.text.sprites import slots

    open_box = DrawnBoard(9, boxes(9)["open"])
    shut_five = DrawnBoard(9, boxes(9)["open"] & ~(1 << 4))
    difference = ImageChops.difference(pixels(draw_png(open_box)), pixels(draw_png(shut_five)))
    x0, y0, x1, y1 = slots(9)[4].column
    assert difference.getbbox() is not None
    left, top, right, bottom = difference.getbbox()  # type: ignore[misc]
    assert x0 <= left and right <= x1 and y0 <= top and bottom <= y1


@pytest.mark.parametrize("name", ["Åse Ærø", "Bjørn Ødegård", "Zoë Brontë", "Ångström", "Øyvind"])
def test_nordic_names_draw_every_letter(name: str) -> None:
    """æ ø å ë and their capitals are in the shipped font: nothing of the name is dropped."""
    assert drawable(name) == name
    assert all(has_glyph(char) for char in name if not char.isspace())


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Åse 🎲", "Åse"),
        ("🦊 Zoë", "Zoë"),
        ("Bjørn 👍🏽", "Bjørn"),
        ("Kå\u200d🔥re", "Kåre"),
        ("1️⃣ Ole", "1 Ole"),
        ("Liu 刘", "Liu"),
    ],
)
def test_emoji_and_missing_letters_are_dropped(name: str, shown: str) -> None:
    """Emoji (with joiners, skin tones, keycaps) and letters the font lacks are left out, so the
    picture is the same as that of the name without them: nothing draws as a box."""
    with_emoji = DrawnBoard(9, 0b111, (3,), name, None)
    without = DrawnBoard(9, 0b111, (3,), shown, None)
    assert changed_share(pixels(draw_png(with_emoji)), pixels(draw_png(without))) == 0


def test_a_missing_glyph_is_recognised() -> None:
    """The test for a glyph tells a letter from the font's box."""
    assert has_glyph("ø") and has_glyph("▶")
    assert not has_glyph("刘") and not has_glyph("\U0001f3b2")


def test_frames_are_cached_by_what_they_show() -> None:
    """The same state is drawn once; equal states from anywhere share it."""
    board_png.cache_clear()
    first = board_png(DrawnBoard(10, 0b1010101010, (5, 3), "Ole", 12))
    again = board_png(DrawnBoard(10, 0b1010101010, (5, 3), "Ole", 12))
    assert first is again
    assert board_png.cache_info().hits == 1
