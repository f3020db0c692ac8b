"""The board as a picture (SPEC section 7, the image style): a PNG of the wooden box.

The pieces are drawn once (`core.text.sprites`) and turned into palette images sharing one
palette; a frame is a copy of the box with every flap standing, the tipped-down columns, the
dice and the status line pasted on, then written as an 8-bit PNG. Pasting palette images copies
bytes, so a frame costs about as much as its PNG encoding; frames are cached by what they show.

The PNG is written here, in two bands: the box (flaps and dice) is compressed once per position
and kept, the status line (whose turn, the pot) each time; the two deflate streams are joined
into one (the first ends on a full flush) and the checksum carried across. Players' names make
nearly every frame new, while positions repeat; a click of the image style draws one frame.
"""

from __future__ import annotations

import struct
import threading
import zlib
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from core.game.rules import TILE_COUNTS
from core.text import sprites
from core.text.drawn import MAX_DICE, DrawnBoard

FRAMES_CACHED = 512
LABELS_CACHED = 1024
NAME_WIDTH, POT_WIDTH = 400, 190
PNG_LEVEL = 3  # zlib's default (6) saves a sixth of the bytes for six times the time
TURN_SIGN = "▶"  # before the player whose turn it is
BAND = sprites.STATUS_Y[0]  # rows above: the box; from here down: the status line
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x5e"  # deflate, 32 KB window, "fast" level hint; (0x785e % 31 == 0)
# Frames are drawn on the event loop (Discord) and in threads (the picture endpoint, the warm-up);
# one FreeType face is shared by them, so text is drawn by one thread at a time.
_LETTERING = threading.RLock()


@lru_cache(maxsize=FRAMES_CACHED)
def board_png(board: DrawnBoard) -> bytes:
    """The PNG of `board`, drawn on first request and remembered."""
    return draw_png(board)


def draw_png(board: DrawnBoard) -> bytes:
    """The PNG of `board`, drawn now (its box's rows as kept, when that position was drawn)."""
    box, checksum = _box_band(board.tiles, board.open_mask, board.dice)
    status = _rows(_status_band(board))
    tail = zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    stream = b"".join((
        ZLIB_HEADER, box, tail.compress(status), tail.flush(),
        struct.pack(">I", zlib.adler32(status, checksum)),
    ))  # fmt: skip
    header = struct.pack(">IIBBBBB", sprites.WIDTH, sprites.HEIGHT, 8, 3, 0, 0, 0)  # palette
    return b"".join((
        PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", _palette_bytes()),
        _chunk(b"IDAT", stream), _chunk(b"IEND", b""),
    ))  # fmt: skip


@lru_cache(maxsize=FRAMES_CACHED)
def _box_band(tiles: int, open_mask: int, dice: tuple[int, ...]) -> tuple[bytes, int]:
    """The box's rows of a position, deflated up to a full flush (so another stream may follow
    on), and their Adler-32 checksum."""
    rows = _rows(frame(DrawnBoard(tiles, open_mask, dice)), BAND)
    head = zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return head.compress(rows) + head.flush(zlib.Z_FULL_FLUSH), zlib.adler32(rows)


def _status_band(board: DrawnBoard) -> Image.Image:
    """The status line's rows: whose turn it is and the pot, on the box's background."""
    image = _box(board.tiles, shut=False).crop((0, BAND, sprites.WIDTH, sprites.HEIGHT))
    if board.player:
        image.paste(_label(f"{TURN_SIGN} {board.player}", NAME_WIDTH, chip=False), (18, 0))
    if board.pot is not None:
        image.paste(_label(str(board.pot), POT_WIDTH, chip=True), (sprites.WIDTH - POT_WIDTH, 0))
    return image


def _rows(image: Image.Image, height: int | None = None) -> bytes:
    """A palette image's rows (the first `height`) as PNG stores them: each after a 0 (no
    filter; a palette image gains nothing from PNG's filters). Pasted one pixel right of a
    column of zeros, so Pillow lays the bytes out in one call."""
    height = image.height if height is None else height
    shifted = Image.new("P", (image.width + 1, height), 0)
    shifted.paste(image.crop((0, 0, image.width, height)), (1, 0))
    return shifted.tobytes()


@cache
def _palette_bytes() -> bytes:
    return bytes(_box(min(TILE_COUNTS), shut=False).getpalette() or ())


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def frame(board: DrawnBoard) -> Image.Image:
    """The picture as a palette image."""
    image = _box(board.tiles, shut=False).copy()
    shut_box = _box(board.tiles, shut=True)
    for tile, slot in enumerate(sprites.slots(board.tiles), start=1):
        if not board.is_open(tile):
            image.paste(shut_box.crop(slot.column), slot.column[:2])
    for index, pips in enumerate(board.dice):
        image.paste(_die(len(board.dice), index, pips), _die_corner(len(board.dice), index))
    top = sprites.STATUS_Y[0]
    if board.player:
        image.paste(_label(f"{TURN_SIGN} {board.player}", NAME_WIDTH, chip=False), (18, top))
    if board.pot is not None:
        image.paste(_label(str(board.pot), POT_WIDTH, chip=True), (sprites.WIDTH - POT_WIDTH, top))
    return image


@cache
def _palette() -> Image.Image:
    """The one palette every sprite shares (so that pasting one copies its bytes as they are)."""
    with _LETTERING:
        source = sprites.palette_source()
    return source.quantize(colors=255, method=Image.Quantize.MEDIANCUT)


def _to_palette(image: Image.Image) -> Image.Image:
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@cache
def _box(tiles: int, *, shut: bool) -> Image.Image:
    with _LETTERING:  # the flaps' numbers
        return _to_palette(sprites.box(tiles, shut=shut))


def _die_corner(count: int, index: int) -> tuple[int, int]:
    x, y = sprites.die_centres(count)[index]
    return x - sprites.DIE_CELL // 2, y - sprites.DIE_CELL // 2


@cache
def _die(count: int, index: int, pips: int) -> Image.Image:
    """Die `index` of a roll of `count` dice, on the felt it lies on (the felt is the same
    under every number of tiles)."""
    left, top = _die_corner(count, index)
    cell = sprites.DIE_CELL
    felt = _felt().crop((left, top, left + cell, top + cell))
    return _to_palette(sprites.die(pips, sprites.DIE_TILT[index], felt))


@cache
def _felt() -> Image.Image:
    with _LETTERING:
        return sprites.box(min(TILE_COUNTS), shut=False)


def warm() -> None:
    """Draw every sprite now (a process does it once, before its first game is shown)."""
    for tiles in TILE_COUNTS:
        _box(tiles, shut=False)
        _box(tiles, shut=True)
    for count in range(1, MAX_DICE + 1):
        for index in range(count):
            for pips in range(1, 7):
                _die(count, index, pips)


@lru_cache(maxsize=LABELS_CACHED)
def _label(text: str, width: int, *, chip: bool) -> Image.Image:
    height = sprites.STATUS_Y[1] - sprites.STATUS_Y[0]
    shown = drawable(text)
    with _LETTERING:
        return _to_palette(sprites.label(shown, (width, height), chip=chip))


def drawable(text: str) -> str:
    """`text` without the characters the font has no glyph for (they would draw as boxes)."""
    return "".join(char for char in text if char.isspace() or has_glyph(char))


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether the shipped font draws `char` (a missing glyph comes out as the font's box)."""
    return _ink(char) != _ink(_NOT_A_CHARACTER)


_NOT_A_CHARACTER = "\U0010fffd"  # private use: no font draws it, so it shows the missing box


@lru_cache(maxsize=4097)
def _ink(char: str) -> bytes:
    image = Image.new("L", (48, 48))
    with _LETTERING:
        ImageDraw.Draw(image).text((8, 8), char, font=sprites.font(20), fill=255)
    return image.tobytes()
