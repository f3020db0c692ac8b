"""A message as a test reads it: its buttons, the ones still in play, its text."""

from __future__ import annotations

from tests.e2e.discord.payloads import Json

AFTER_MATCH = ("stb:review:", "stb:rematch:")  # the buttons a finished match keeps


def buttons(message: Json) -> list[Json]:
    """The buttons of a message, row by row."""
    return [item for row in message.get("components") or [] for item in row.get("components", [])]


def playing(message: Json) -> list[Json]:
    """The buttons that play the game: all but a finished match's Rematch and Review."""
    return [b for b in buttons(message) if not str(b["custom_id"]).startswith(AFTER_MATCH)]


def text_of(message: Json) -> str:
    """A message's content and embed text, for assertions."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
    return "\n".join(part for part in parts if part)
