"""The pieces of the board picture, drawn once in full colour: the wooden box, its flaps standing
and tipped down, the dice on the felt, the chip and the names. `core.text.picture` turns them
into palette sprites and pastes them per frame.

Sizes are in pixels of the final picture; `Layout` says where everything goes.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from io import BytesIO

from PIL import Image, ImageDraw, ImageFilter, ImageFont

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

WIDTH, HEIGHT = 640, 348
BACKGROUND: RGB = (43, 45, 49)  # around the box's rounded corners and under the status line
FRAME: Box = (0, 0, WIDTH, 310)
PANEL: Box = (22, 18, WIDTH - 22, 150)  # the recess the flaps stand in
RAIL: Box = (14, 146, WIDTH - 14, 162)  # the hinge rail the flaps tip over
FELT: Box = (22, 162, WIDTH - 22, 290)
STATUS_Y = (310, HEIGHT)
FLAP_TOP = 28
FALLEN_DEPTH = 34  # how far a tipped flap reaches onto the felt, seen from the front
DIE = 52
DIE_Y = 252
DIE_CELL = 74  # the square of felt a die sprite covers (the die turned a little fits in it)
DIE_GAP = 80
DIE_TILT = (-7.0, 5.0, -3.0)  # each die lies a little askew, as thrown dice do

WOOD: RGB = (196, 140, 84)
WOOD_DARK: RGB = (120, 74, 38)
FLAP: RGB = (232, 196, 140)
FLAP_BACK: RGB = (150, 98, 52)
RECESS: RGB = (74, 44, 24)
FELT_GREEN: RGB = (28, 108, 58)
INK: RGB = (70, 38, 16)
PIP: RGB = (28, 28, 30)
IVORY: RGB = (248, 245, 236)
TEXT: RGB = (236, 236, 238)
CHIP: RGB = (200, 40, 44)
GOLD: RGB = (240, 196, 80)


@dataclass(frozen=True, slots=True)
class Slot:
    """Where tile `n`'s flap stands: its column (the sprite's box) and the flap inside it."""

    column: Box
    flap: Box


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Bold, shipped in the package (its licence beside it in core/text/fonts)."""
    data = resources.files("core.text").joinpath("fonts/DejaVuSans-Bold.ttf").read_bytes()
    return ImageFont.truetype(BytesIO(data), size)


def slots(tiles: int) -> tuple[Slot, ...]:
    """The tiles' columns, side by side across the panel."""
    left, right = PANEL[0] + 6, PANEL[2] - 6
    pitch = (right - left) / tiles
    found = []
    for index in range(tiles):
        x0, x1 = round(left + index * pitch), round(left + (index + 1) * pitch)
        column = (x0, PANEL[1], x1, FELT[1] + FALLEN_DEPTH + 4)
        found.append(Slot(column, (x0 + 3, FLAP_TOP, x1 - 3, RAIL[1] + 2)))
    return tuple(found)


def die_centres(count: int) -> tuple[tuple[int, int], ...]:
    """The dice of one roll, side by side in the middle of the felt."""
    first = WIDTH // 2 - (count - 1) * DIE_GAP // 2
    return tuple((first + index * DIE_GAP, DIE_Y) for index in range(count))


def box(tiles: int, shut: bool) -> Image.Image:
    """The whole box with every flap standing (or every flap tipped down), in full colour."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(FRAME, radius=22, fill=WOOD_DARK)
    draw.rounded_rectangle(_inset(FRAME, 4), radius=18, fill=WOOD)
    image.paste(_grain((WIDTH, FRAME[3]), seed=7), (0, 0), _frame_mask())
    draw.rectangle(PANEL, fill=RECESS)
    draw.rectangle((PANEL[0], PANEL[1], PANEL[2], PANEL[1] + 6), fill=(54, 30, 14))  # shadow
    _felt(image)
    _rail(image)
    number_size = _number_size(tiles)
    for tile, slot in enumerate(slots(tiles), start=1):
        if shut:
            _fallen(image, slot)
        else:
            _standing(image, slot, str(tile), number_size)
    return image


def _number_size(tiles: int) -> int:
    """The largest lettering (up to 40 px) in which the widest number fits on its flap."""
    x0, _, x1, _ = slots(tiles)[0].flap
    size = 40
    while size > 12 and font(size).getlength(str(tiles)) > x1 - x0 - 12:
        size -= 1
    return size


def _inset(area: Box, by: int) -> Box:
    return (area[0] + by, area[1] + by, area[2] - by, area[3] - by)


def _frame_mask() -> Image.Image:
    """Where the grain shows: the frame's face, not the panel, the felt or the corners."""
    mask = Image.new("L", (WIDTH, FRAME[3]), 0)
    ImageDraw.Draw(mask).rounded_rectangle(_inset(FRAME, 4), radius=18, fill=255)
    return mask


def _grain(size: tuple[int, int], seed: int) -> Image.Image:
    """Wood grain: long, gently waving streaks a shade lighter and darker than the wood."""
    width, height = size
    rng = random.Random(seed)
    grain = Image.new("RGB", size, WOOD)
    draw = ImageDraw.Draw(grain)
    for _ in range(42):
        y, shade = rng.uniform(0, height), rng.choice((-22, -14, 12, 18))
        colour = tuple(max(0, min(255, c + shade)) for c in WOOD)
        wave, phase = rng.uniform(1.5, 4.0), rng.uniform(0, 6.3)
        points = [(x, y + wave * _wave(x / 90 + phase)) for x in range(0, width + 16, 16)]
        draw.line(points, fill=colour, width=rng.choice((1, 2, 2, 3)))
    return grain.filter(ImageFilter.GaussianBlur(0.8))


def _wave(x: float) -> float:
    return math.sin(x) + 0.4 * math.sin(2.7 * x)


def _felt(image: Image.Image) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle(FELT, fill=FELT_GREEN)
    for step in range(6):  # the felt darkens under the rail's edge
        shade = tuple(max(0, c - 6 * (6 - step)) for c in FELT_GREEN)
        draw.line((FELT[0], FELT[1] + step, FELT[2], FELT[1] + step), fill=shade)


def _rail(image: Image.Image) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle(RAIL, fill=WOOD_DARK)
    draw.rectangle((RAIL[0], RAIL[1] + 2, RAIL[2], RAIL[3] - 3), fill=(170, 116, 64))
    draw.line((RAIL[0], RAIL[1] + 3, RAIL[2], RAIL[1] + 3), fill=(214, 166, 110))


def _standing(image: Image.Image, slot: Slot, number: str, size: int) -> None:
    """A flap standing up: a light wooden plank with its number burnt in."""
    x0, y0, x1, y1 = slot.flap
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((x0 + 2, y0 + 2, x1 + 2, y1), radius=6, fill=(50, 28, 12))  # shadow
    draw.rounded_rectangle((x0, y0, x1, y1), radius=6, fill=(176, 128, 78))
    draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=5, fill=FLAP)
    draw.line((x0 + 4, y0 + 4, x0 + 4, y1 - 6), fill=(246, 222, 180), width=2)  # lit edge
    draw.rectangle((x0 + 2, y1 - 9, x1 - 2, y1 - 2), fill=(208, 168, 112))  # hinge shade
    centre = ((x0 + x1) / 2, y0 + (y1 - y0) * 0.42)
    lettering = font(size)
    draw.text((centre[0] + 1, centre[1] + 1), number, font=lettering, fill=(250, 230, 196),
              anchor="mm")  # fmt: skip
    draw.text(centre, number, font=lettering, fill=INK, anchor="mm")


def _fallen(image: Image.Image, slot: Slot) -> None:
    """A flap tipped down over the rail: its plain back, foreshortened, lying on the felt."""
    x0, _, x1, _ = slot.flap
    top, bottom = RAIL[1] + 2, FELT[1] + FALLEN_DEPTH
    draw = ImageDraw.Draw(image)
    draw.rectangle((x0, PANEL[1] + 8, x1, RAIL[1]), fill=(62, 36, 18))  # the empty slot
    shadow = [(x0 - 1, top + 4), (x1 + 3, top + 4), (x1 + 4, bottom + 4), (x0 - 1, bottom + 4)]
    draw.polygon(shadow, fill=(16, 66, 34))
    plank = [(x0, top), (x1, top), (x1 + 2, bottom), (x0 - 2, bottom)]
    draw.polygon(plank, fill=(110, 70, 36))
    inner = [(x0 + 2, top + 2), (x1 - 2, top + 2), (x1, bottom - 2), (x0, bottom - 2)]
    draw.polygon(inner, fill=FLAP_BACK)
    draw.line((x0 + 2, top + 3, x1 - 2, top + 3), fill=(96, 60, 30), width=2)  # the hinge
    draw.line((x0, bottom - 3, x1, bottom - 3), fill=(176, 122, 70))  # the lit front edge


def die(pips: int, tilt: float, felt: Image.Image) -> Image.Image:
    """One die showing `pips`, turned by `tilt` degrees, lying on `felt` (its square)."""
    scale = 3  # drawn large and shrunk: smooth edges and round pips
    size = DIE * scale
    face = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(face)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=11 * scale, fill=(196, 192, 182))
    draw.rounded_rectangle((3, 3, size - 7, size - 7), radius=10 * scale, fill=IVORY)
    radius = 5 * scale
    for px, py in _pip_spots(pips):
        cx, cy = size * px, size * py
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PIP)
    turned = face.rotate(tilt, resample=Image.Resampling.BICUBIC, expand=True)
    small = turned.resize((turned.width // scale, turned.height // scale), Image.Resampling.LANCZOS)
    square = felt.convert("RGBA")
    shadow = Image.new("RGBA", small.size, (8, 40, 20, 150))
    offset = ((square.width - small.width) // 2, (square.height - small.height) // 2)
    square.paste(shadow, (offset[0] + 4, offset[1] + 5), small.getchannel("A"))
    square.alpha_composite(small, offset)
    return square.convert("RGB")


def _pip_spots(pips: int) -> tuple[tuple[float, float], ...]:
    low, mid, high = 0.26, 0.5, 0.74
    spots = {
        1: ((mid, mid),),
        2: ((low, low), (high, high)),
        3: ((low, low), (mid, mid), (high, high)),
        4: ((low, low), (high, low), (low, high), (high, high)),
        5: ((low, low), (high, low), (mid, mid), (low, high), (high, high)),
        6: ((low, low), (high, low), (low, mid), (high, mid), (low, high), (high, high)),
    }
    return spots[pips]


def label(text: str, size: tuple[int, int], *, chip: bool = False) -> Image.Image:
    """One line of the status bar: `text` on the bar's colour, after a chip when `chip`."""
    image = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    middle = size[1] // 2
    x = 0
    if chip:
        draw.ellipse((0, middle - 11, 22, middle + 11), fill=CHIP)
        draw.ellipse((5, middle - 6, 17, middle + 6), outline=IVORY, width=2)
        x = 30
    draw.text((x, middle), text, font=font(20), fill=TEXT, anchor="lm")
    return image


def palette_source() -> Image.Image:
    """Every colour the picture uses, for one shared palette: the box open and shut, the dice,
    and text in every shade between the bar and the letters."""
    sheet = Image.new("RGB", (WIDTH, HEIGHT * 2 + DIE_CELL), BACKGROUND)
    sheet.paste(box(12, shut=False), (0, 0))
    sheet.paste(box(10, shut=True), (0, HEIGHT))
    felt = Image.new("RGB", (DIE_CELL, DIE_CELL), FELT_GREEN)
    for pips in range(1, 7):
        sheet.paste(die(pips, DIE_TILT[pips % 3], felt), (pips * DIE_CELL, 2 * HEIGHT))
    sheet.paste(label("▶ Åse 0123456789", (360, 40), chip=True), (WIDTH - 360, 2 * HEIGHT + 20))
    return sheet
