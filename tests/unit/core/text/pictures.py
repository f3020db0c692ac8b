"""The boards the golden pictures show, and how two pictures are compared."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops

from core.text.drawn import DrawnBoard

GOLDEN = Path(__file__).parent / "golden"
# Fonts and resampling round a little differently from one Pillow (and its FreeType) to the next:
# a picture may differ from its golden in a few antialiased pixels, never in a flap, a pip or a
# letter (one letter changed is about 60 pixels).
MAX_CHANGED_PIXELS = 0.0001  # of the picture: 22 pixels
MAX_CHANGE = 96  # per channel, for a pixel to count as unchanged


def boxes(tiles: int) -> dict[str, int]:
    """The open box, a half-shut one (every other flap down), and the shut box."""
    full = (1 << tiles) - 1
    return {"open": full, "half": full & int("01" * tiles, 2), "shut": 0}


def golden_cases() -> dict[str, DrawnBoard]:
    """Every tile count with every box, and one, two and three dice across them (three dice
    only in the twelve-flap box, as the rules allow)."""
    cases = {}
    for tiles, rolls in ((9, ((4,), (6, 2), ())), (10, ((5, 5), (1,), ())),
                         (12, ((2, 4, 6), (3, 1), (6,)))):  # fmt: skip
        for (box, mask), dice in zip(boxes(tiles).items(), rolls, strict=True):
            pot = 40 if tiles == 10 else None
            cases[f"board-{tiles}-{box}"] = DrawnBoard(tiles, mask, dice, "Åse Ærø", pot)
    return cases


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def changed_share(first: Image.Image, second: Image.Image) -> float:
    """The share of pixels that differ by more than MAX_CHANGE in some channel."""
    assert first.size == second.size
    difference = ImageChops.difference(first, second).convert("L")
    changed = difference.point(lambda value: 255 if value > MAX_CHANGE // 3 else 0)
    return changed.histogram()[255] / (first.width * first.height)
