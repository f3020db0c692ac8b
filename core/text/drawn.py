"""What a board picture shows, as a value with a short text form that round-trips.

The text form names only what is drawn: the number of tiles, which are open, the dice, whose
turn it is and the pot. It goes into the picture's URL (signed by `PictureLinks` in
adapters/pictures.py), so it holds no game id and no user id, and two games in the same
position share one picture.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from dataclasses import dataclass

from core.game.rules import TILE_COUNTS

MAX_DICE = 3
MAX_NAME = 24  # characters of a name drawn; longer names are cut (a picture has one line)
MAX_POT = 999_999_999
_TOKEN = re.compile(
    r"(?P<tiles>[0-9]{1,2})\.(?P<open>[0-9a-f]{1,3})\.(?P<dice>[1-6]{0,3})"
    r"\.(?P<pot>-|0|[1-9][0-9]{0,8})\.(?P<name>[A-Za-z0-9_-]{0,128})"
)


class BadPicture(ValueError):
    """A text form that is not one of a board picture (a mistyped or forged URL)."""


@dataclass(frozen=True, slots=True)
class DrawnBoard:
    """One picture of the box: flaps 1..tiles (open where the mask says), the current roll,
    the player whose turn it is, and the pot when stakes are on (None: no pot shown)."""

    tiles: int
    open_mask: int
    dice: tuple[int, ...] = ()
    player: str = ""
    pot: int | None = None

    def __post_init__(self) -> None:
        if self.tiles not in TILE_COUNTS:
            raise BadPicture(f"tiles must be one of {TILE_COUNTS}, not {self.tiles}")
        if not 0 <= self.open_mask < 1 << self.tiles:
            raise BadPicture(f"open tiles {self.open_mask:#x} outside 1..{self.tiles}")
        if len(self.dice) > MAX_DICE or any(not 1 <= pips <= 6 for pips in self.dice):
            raise BadPicture(f"dice must be up to {MAX_DICE} numbers 1..6, not {self.dice}")
        if self.pot is not None and not 0 <= self.pot <= MAX_POT:
            raise BadPicture(f"pot out of range: {self.pot}")
        if self.player != clean_name(self.player):
            object.__setattr__(self, "player", clean_name(self.player))

    def is_open(self, tile: int) -> bool:
        return bool(self.open_mask >> (tile - 1) & 1)

    def to_token(self) -> str:
        """`9.1f3.53.40.QWxp`: tiles, open mask (hex), dice, pot (`-` for none), name."""
        dice = "".join(map(str, self.dice))
        pot = "-" if self.pot is None else str(self.pot)
        name = base64.urlsafe_b64encode(self.player.encode()).decode().rstrip("=")
        return f"{self.tiles}.{self.open_mask:x}.{dice}.{pot}.{name}"

    @classmethod
    def from_token(cls, token: str) -> DrawnBoard:
        """The picture a text form names; BadPicture unless it is exactly what `to_token`
        writes (one picture, one URL)."""
        found = _TOKEN.fullmatch(token)
        if found is None:
            raise BadPicture("not a board picture")
        try:
            raw = found["name"]
            name = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode()
        except (binascii.Error, UnicodeDecodeError, ValueError):
            raise BadPicture("the name is not base64 UTF-8") from None
        pot = None if found["pot"] == "-" else int(found["pot"])
        dice = tuple(int(pips) for pips in found["dice"])
        board = cls(int(found["tiles"]), int(found["open"], 16), dice, name, pot)
        if board.to_token() != token:
            raise BadPicture("not in its one written form")
        return board


def clean_name(name: str) -> str:
    """The name as the picture can draw it: composed (NFC), without emoji, joiners, variation
    selectors and control characters (the font has no pictures of them, and a missing glyph
    would draw as a box), spaces collapsed, cut to MAX_NAME characters."""
    kept = "".join(char for char in unicodedata.normalize("NFC", name) if _drawable(char))
    return " ".join(kept.split())[:MAX_NAME].strip()


def _drawable(char: str) -> bool:
    category = unicodedata.category(char)
    if category in {"Cc", "Cf", "Cs", "Co", "Cn", "So", "Sk"}:
        # So/Sk: emoji, pictographs and their skin-tone modifiers; Cf: zero-width joiners
        return char.isspace()
    # Variation selectors (U+FE00-FE0F) are Mn: they only pick the emoji form of what precedes
    return not 0xFE00 <= ord(char) <= 0xFE0F and ord(char) != 0x20E3  # 0x20E3: keycap
