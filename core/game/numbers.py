"""Whole numbers typed by people: ASCII digits only, each option with its range, one chip limit.

`str.isdigit()` accepts `²` and `٣`, and `int()` accepts 4,000 digits; neither is a number a
user means. Every surface reads numbers through `parse_int`, so the answer to a bad one always
names the option and its range, and nothing too big ever reaches Redis.
"""

from __future__ import annotations

import re

from core.game.errors import InvalidOption

# The largest chip amount one command may name: a grant, an ante, a Canoga rate, the daily
# allowance, the starting chips. Discord's typed options carry the same limit.
MAX_AMOUNT = 1_000_000
# No balance grows past this. Lua counts in doubles, exact only up to 2**53 (about 9 * 10**15):
# far below it, every sum the commit script makes stays exact.
MAX_BALANCE = 1_000_000_000_000
MAX_DIGITS = 12  # more digits than any range here allows; longer texts are refused unread
_INTEGER = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_STORED = re.compile(r"0|-?[1-9][0-9]{0,15}")  # as Redis (HINCRBY) and this program write one
SHOWN = 20  # characters of a refused value repeated back to the user


def is_integer(text: str) -> bool:
    """Whether `text` is an optionally signed run of ASCII digits of a sane length."""
    return _INTEGER.fullmatch(text.strip()) is not None


def is_digits(text: str) -> bool:
    """Whether `text` is a non-empty run of ASCII digits: what `int()` reads as a plain number
    (`str.isdigit()` alone also takes `²` and `①`, which `int()` refuses)."""
    return text.isascii() and text.isdigit()


def stored_int(text: str) -> int | None:
    """A whole number as it was stored, or None when the stored text is not one: `int()` alone
    would also read `٣`, ` 3` and `3_000`, and refuse `²` with a `ValueError`."""
    return int(text) if _STORED.fullmatch(text) else None


def parse_int(text: str, option: str, low: int, high: int) -> int:
    """`text` as an int in `low..high`, else `InvalidOption` naming the option and the range."""
    if not is_integer(text) or not low <= int(text) <= high:
        raise InvalidOption(
            "error.option.range", option=option, value=shown(text), min=low, max=high
        )
    return int(text)


def shown(text: str) -> str:
    """A refused value as it may be repeated back: short, even when 5,000 characters came in."""
    text = text.strip()
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}…"
