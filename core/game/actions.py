"""What a player (or the clock) can do to a game.

`version` is the game version the acting message showed; None means "whatever is current"
(slash commands and timeouts, which do not come from a message). Actions have no text form of
their own: a click travels as its button id (the service's `ButtonId`), and every other action
is built where it happens.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Action:
    user: str
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Join(Action):
    name: str = ""


@dataclass(frozen=True, slots=True)
class Leave(Action):
    """A seated player leaves the lobby (or the match, forfeiting)."""


@dataclass(frozen=True, slots=True)
class AddBot(Action):
    """A seated player seats a bot in the lobby."""


@dataclass(frozen=True, slots=True)
class RemoveSeat(Action):
    """The host removes a bot or a player from the lobby (`seat` counts from 0, the host)."""

    seat: int = 0


@dataclass(frozen=True, slots=True)
class HandHost(Action):
    """The host hands the host role (and the first seat) to the player in `seat`."""

    seat: int = 0


@dataclass(frozen=True, slots=True)
class Begin(Action):
    """The host starts the match."""


@dataclass(frozen=True, slots=True)
class Cancel(Action):
    """The host closes the lobby."""


@dataclass(frozen=True, slots=True)
class Roll(Action):
    count: int = 2


@dataclass(frozen=True, slots=True)
class Choose(Action):
    tiles: int = 0


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """The host, or an admin (`admin=True`, checked by the platform), stops the game; `name`
    is the stopper's as the channel shows it (an admin need not be seated)."""

    admin: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    """The deadline of the pending decision passed (user is the clock, `"clock"`)."""
