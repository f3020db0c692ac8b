"""Members' names on a page: isolated from the text around them, and cut when very long.

A name is whatever a member typed into their chat profile: a right-to-left override (U+202E)
in it must not turn the rank or the score beside it around, and a name of thousands of
characters must not make a page of tens of kilobytes.
"""

from __future__ import annotations

from markupsafe import Markup, escape

MAX_NAME = 40  # characters shown of a name; the rest is cut, with "…"
FIRST_STRONG_ISOLATE, POP_ISOLATE = "\u2068", "\u2069"


def cut(name: str, most: int = MAX_NAME) -> str:
    """`name`, or its first `most` - 1 characters and "…"."""
    return name if len(name) <= most else f"{name[: most - 1].rstrip()}…"


def isolated(name: str) -> Markup:
    """The name, cut and escaped, in its own `<bdi>`: its direction stays inside it."""
    return Markup("<bdi>{}</bdi>").format(escape(cut(name)))


def isolated_text(name: str) -> str:
    """The name, cut, between Unicode isolates: for places that take no markup (the title)."""
    return f"{FIRST_STRONG_ISOLATE}{cut(name)}{POP_ISOLATE}"
