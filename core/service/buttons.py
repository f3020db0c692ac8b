"""Button ids: everything a click needs to find its game and check it is current.

`stb:<verb>:<game id>:<version>[:<arg>]` stays far under Discord's 100 characters, and carries
the game id so a button from an earlier game in the same channel can never act on a new one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.game.errors import StaleAction

PREFIX = "stb"
_NUMBER = re.compile(r"[0-9]{1,9}")  # ASCII only: `²` passes isdigit() but not int()
VERBS = (
    "join", "leave", "bot", "begin", "cancel", "roll", "choose", "hint", "page", "review",
    "rematch", "board",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class ButtonId:
    verb: str
    game: str
    version: int
    arg: int = 0

    def __str__(self) -> str:
        return f"{PREFIX}:{self.verb}:{self.game}:{self.version}:{self.arg}"


def parse_button(text: str) -> ButtonId:
    """Parse a button id; anything forged or broken counts as an outdated button."""
    parts = text.split(":")
    if len(parts) != 5 or parts[0] != PREFIX or parts[1] not in VERBS:
        raise StaleAction()
    _, verb, game, version, arg = parts
    well_formed = _NUMBER.fullmatch(version) and _NUMBER.fullmatch(arg)
    if not (well_formed and game.isascii() and game.isalnum() and len(game) <= 16):
        raise StaleAction()
    return ButtonId(verb, game, int(version), int(arg))


def belongs_to(button: str, game_id: str) -> bool:
    """Whether the message that carried `button` shows game `game_id` (so it may be edited to
    show it). A Rematch button belongs to the match before: its new lobby gets a message of its
    own, and the finished match's board stays in the channel."""
    try:
        return parse_button(button).game == game_id
    except StaleAction:
        return True  # not a game button of ours: nothing to tell apart
