"""A member's stored counters as `stats` shows them.

Every field is written by HINCRBY, so it is a whole number; one that is not (a damaged or
hand-edited record: `²`, `٣`, `x`) shows `—` in its own place and the rest of the stats
still shows, as an unreadable setting falls back to its default and the server goes on.
"""

from __future__ import annotations

from core.game.numbers import stored_int
from core.text.i18n import decimal

UNREADABLE = "—"  # in the place of a number that cannot be read, or of a best not yet set

Fields = dict[str, str]


def count(fields: Fields, name: str) -> int | str:
    """A counter: 0 when absent, `—` when its stored text is not a whole number."""
    found = stored_int(fields.get(name) or "0")
    return UNREADABLE if found is None else found


def best(fields: Fields, name: str) -> int | str:
    """A best total: `—` when none is stored yet or the stored one cannot be read."""
    found = stored_int(fields.get(name, ""))
    return UNREADABLE if found is None else found


def ratio(part: int | str, whole: int | str, lang: str, scale: int = 1) -> str:
    """`part / whole` with one decimal, or `—` when either cannot be read (or `whole` is 0)."""
    if isinstance(part, str) or isinstance(whole, str) or not whole:
        return UNREADABLE
    return decimal(lang, scale * part / whole)
