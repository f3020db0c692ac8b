"""What happened during one `engine.apply`: the manager turns these into views, chips and stats."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from core.game.state import Ending, Scores


class TurnEnd(StrEnum):
    NO_MOVE = "no_move"  # the roll could not be covered
    SHUT = "shut"  # every tile closed
    LAST_DIE = "last_die"  # closed one die's tile under the last-die rule
    SKIPPED = "skipped"  # a dropped player's turn, scored at the maximum
    SHUT_BY_OTHER = "shut_by_other"  # someone shut the box before this player's turn came


@dataclass(frozen=True, slots=True)
class Event:
    pass


@dataclass(frozen=True, slots=True)
class Joined(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class Left(Event):
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class Stopped(Event):
    """Who stopped the game (the host or an admin)."""

    name: str


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    pass


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    seat: int
    dice: tuple[int, ...]
    auto: bool


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """Tiles closed (or opened, by the opener in the long game)."""

    seat: int
    tiles: int
    auto: bool
    opened: bool = False


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int
    score: int | None  # None in the long game, which has no scores
    reason: TurnEnd
    dice: tuple[int, ...] = ()
    # The tiles the player could still move: a fact for saying why, not part of what happened.
    available: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class ExtraRoll(Event):
    """Long game: an unusable double still grants one more roll."""

    seat: int


@dataclass(frozen=True, slots=True)
class Dropped(Event):
    """Out of the rest of the match: absent three turns in a row, or `left` of their own will."""

    seat: int
    left: bool = False


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The deadline passed: the rest of this player's turn is played for them."""

    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    round: int
    scores: Scores
    winners: tuple[int, ...]
    shut_by: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    ending: Ending
    winners: tuple[int, ...]
