"""Button ids: everything a click needs to find its game and check it is current.

`stb:<verb>:<game id>:<version>:<arg>` stays far under Discord's 100 characters, and carries
the game id so a button from an earlier game in the same channel can never act on a new one.
`BUTTON_ID` is the one grammar of it: `parse_button` reads with it, and Discord's dynamic
buttons register it as their template.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.game.errors import StaleAction

PREFIX = "stb"
VERBS = (
    "join", "leave", "bot", "begin", "cancel", "roll", "choose", "hint", "page", "review",
    "rematch", "board", "remove", "host", "tjoin", "tleave",  # tjoin/tleave: a tournament's
)  # fmt: skip
_GAME = "[A-Za-z0-9]{1,16}"
_NUMBER = "[0-9]{1,9}"  # ASCII only: `²` passes isdigit() but not int(), and `\d` takes `٣`
BUTTON_ID = re.compile(
    rf"{PREFIX}:(?P<verb>{'|'.join(VERBS)}):(?P<game>{_GAME})"
    rf":(?P<version>{_NUMBER}):(?P<arg>{_NUMBER})"
)


@dataclass(frozen=True, slots=True)
class ButtonId:
    verb: str
    game: str
    version: int
    arg: int = 0

    def __str__(self) -> str:
        return f"{PREFIX}:{self.verb}:{self.game}:{self.version}:{self.arg}"


def read_button(text: str) -> ButtonId | None:
    """A button id as a typed value, or None for one that is forged or broken."""
    try:
        return parse_button(text)
    except StaleAction:
        return None


def parse_button(text: str) -> ButtonId:
    """Parse a button id; anything forged or broken counts as an outdated button."""
    found = BUTTON_ID.fullmatch(text)
    if found is None:
        raise StaleAction()
    return ButtonId(found["verb"], found["game"], int(found["version"]), int(found["arg"]))


def belongs_to(button: str, game_id: str) -> bool:
    """Whether the message that carried `button` shows game `game_id` (so it may be edited to
    show it). A Rematch button belongs to the match before: its new lobby gets a message of its
    own, and the finished match's board stays in the channel."""
    try:
        return parse_button(button).game == game_id
    except StaleAction:
        return True  # not a game button of ours: nothing to tell apart
