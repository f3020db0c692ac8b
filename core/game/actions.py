"""What a player (or the clock) can do to a game, with a compact text form that round-trips.

`version` is the game version the acting message showed; None means "whatever is current"
(slash commands and timeouts, which do not come from a message).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar
from urllib.parse import quote, unquote

from core.game.errors import InvalidOption


@dataclass(frozen=True, slots=True)
class Action:
    tag: ClassVar[str] = ""
    user: str
    version: int | None = None

    def to_str(self) -> str:
        values = [quote(str(getattr(self, f.name)), safe="") for f in fields(self)]
        return ":".join([self.tag, *values])


@dataclass(frozen=True, slots=True)
class Join(Action):
    tag: ClassVar[str] = "join"
    name: str = ""


@dataclass(frozen=True, slots=True)
class Leave(Action):
    tag: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class AddBot(Action):
    tag: ClassVar[str] = "bot"


@dataclass(frozen=True, slots=True)
class Begin(Action):
    tag: ClassVar[str] = "begin"


@dataclass(frozen=True, slots=True)
class Cancel(Action):
    tag: ClassVar[str] = "cancel"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    tag: ClassVar[str] = "roll"
    count: int = 2


@dataclass(frozen=True, slots=True)
class Choose(Action):
    tag: ClassVar[str] = "choose"
    tiles: int = 0


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """The host, or an admin (`admin=True`, checked by the platform), stops the game."""

    tag: ClassVar[str] = "stop"
    admin: bool = False


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    """The deadline of the pending decision passed (user is the clock, `"clock"`)."""

    tag: ClassVar[str] = "timeout"


ACTIONS: dict[str, type[Action]] = {
    cls.tag: cls for cls in (Join, Leave, AddBot, Begin, Cancel, Roll, Choose, Stop, Timeout)
}


def action_from_str(text: str) -> Action:
    """Parse `Action.to_str` output; anything else is refused."""
    tag, *values = text.split(":")
    cls = ACTIONS.get(tag)
    if cls is None or len(values) != len(fields(cls)):
        raise InvalidOption("error.option.action", value=text[:40])
    parsed = [_convert(f.type, unquote(v)) for f, v in zip(fields(cls), values, strict=True)]
    return cls(*parsed)  # type: ignore[arg-type]  # values converted per field type above


def _convert(kind: object, value: str) -> object:
    text = str(kind)
    if "None" in text and value == "None":
        return None
    if "bool" in text:
        return value == "True"
    if "int" in text:
        try:
            return int(value)
        except ValueError:
            raise InvalidOption("error.option.action", value=value) from None
    return value
