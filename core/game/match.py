"""Match settings: the format (how a match ends), the stakes, and the table options (SPEC 2-4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from core.game.errors import InvalidOption
from core.game.numbers import MAX_AMOUNT, is_digits, is_integer, shown
from core.game.option import Option
from core.game.rules import Rules

LIMIT = 45  # `to-45` and `elimination`: the total a player must pass
MAX_ROUNDS = 50
MAX_STAKE = MAX_AMOUNT
TIMER_RANGE = (10, 3600)


class FormatKind(StrEnum):
    ROUNDS = "rounds"
    TO_45 = "to-45"
    ELIMINATION = "elimination"
    FIRST_SHUT = "first-shut"
    LONG = "long"


# How each format and stakes is written (the `N`, `A` and `K` are the player's numbers).
FORMAT_FORMS = tuple("rounds:N" if kind is FormatKind.ROUNDS else kind.value for kind in FormatKind)
STAKES_FORMS = ("none", "pot:A", "canoga[:K]")


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """How a match ends; `rounds` only matters for `rounds:N`."""

    kind: FormatKind = FormatKind.ROUNDS
    rounds: int = 1

    def __post_init__(self) -> None:
        if self.kind is FormatKind.ROUNDS and not 1 <= self.rounds <= MAX_ROUNDS:
            raise InvalidOption("error.option.rounds", value=self.rounds, max=MAX_ROUNDS)

    def to_str(self) -> str:
        return f"rounds:{self.rounds}" if self.kind is FormatKind.ROUNDS else self.kind.value

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        """`rounds:5`, `rounds` (one round), `5` (five rounds), `to-45`, `elimination`, ..."""
        name, _, count = text.strip().lower().partition(":")
        if is_digits(name) and not count:
            name, count = "rounds", name
        try:
            kind = FormatKind(name)
        except ValueError:
            allowed = ", ".join(FORMAT_FORMS)
            raise InvalidOption("error.option.format", value=text, allowed=allowed) from None
        if kind is not FormatKind.ROUNDS:
            if count:
                raise InvalidOption("error.option.format", value=text, allowed=kind.value)
            return cls(kind)
        return cls(kind, _whole_number(count or "1", "rounds", MAX_ROUNDS))  # range: __post_init__


class StakesKind(StrEnum):
    NONE = "none"
    POT = "pot"
    CANOGA = "canoga"


@dataclass(frozen=True, slots=True)
class Stakes:
    """`pot:A` (ante A per round) or `canoga:K` (K chips per point), or none."""

    kind: StakesKind = StakesKind.NONE
    amount: int = 0

    def __post_init__(self) -> None:
        if self.kind is StakesKind.NONE:
            return
        if not 1 <= self.amount <= MAX_STAKE:
            raise InvalidOption("error.option.stake", value=self.amount, max=MAX_STAKE)

    @property
    def staked(self) -> bool:
        return self.kind is not StakesKind.NONE

    def to_str(self) -> str:
        return self.kind.value if not self.staked else f"{self.kind.value}:{self.amount}"

    @classmethod
    def parse(cls, text: str) -> Stakes:
        """`none`, `pot:5`, `canoga` (1 chip a point) or `canoga:2`."""
        name, _, amount = text.strip().lower().partition(":")
        try:
            kind = StakesKind(name)
        except ValueError:
            allowed = "none, pot:A, canoga, canoga:K"
            raise InvalidOption("error.option.stakes", value=text, allowed=allowed) from None
        if kind is StakesKind.NONE:
            return cls()
        if kind is StakesKind.POT and not amount:
            raise InvalidOption("error.option.stakes", value=text, allowed="pot:A")
        return cls(kind, _whole_number(amount or "1", "stakes", MAX_STAKE))  # range: __post_init__


def _whole_number(text: str, option: str, most: int) -> int:
    """A typed count in ASCII digits (not `²`, not 5,000 digits); a number's range is the
    option's own check, so `rounds:0` and `rounds:51` get the same message ("The number of
    rounds must be 1 to 50")."""
    if not is_integer(text):
        raise InvalidOption("error.option.range", option=option, value=shown(text), min=1,
                            max=most)  # fmt: skip
    return int(text)


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """Everything chosen when a lobby opens."""

    rules: Rules = field(default_factory=Rules)
    format: MatchFormat = field(default_factory=MatchFormat)
    stakes: Stakes = field(default_factory=Stakes)
    timer: int = 60
    hints: bool = True
    max_players: int = 6

    def __post_init__(self) -> None:
        if not TIMER_RANGE[0] <= self.timer <= TIMER_RANGE[1]:
            low, high = TIMER_RANGE
            raise InvalidOption("error.option.timer", value=self.timer, min=low, max=high)
        if not 1 <= self.max_players <= 10:
            raise InvalidOption("error.option.players", value=self.max_players, max=10)
        if self.format.kind is FormatKind.LONG and self.stakes.kind is StakesKind.CANOGA:
            # Canoga pays score differences; the long game has no scores.
            raise InvalidOption("error.option.long_canoga")

    @property
    def min_players(self) -> int:
        return 2 if self.format.kind is FormatKind.LONG else 1

    @property
    def seat_limit(self) -> int:
        return 2 if self.format.kind is FormatKind.LONG else self.max_players

    def to_str(self) -> str:
        parts = [self.rules.to_str(), self.format.to_str(), self.stakes.to_str()]
        parts += [str(self.timer), "h" if self.hints else "-", str(self.max_players)]
        return "/".join(parts)

    @classmethod
    def from_str(cls, text: str) -> MatchConfig:
        rules, fmt, stakes, timer, hints, players = text.split("/")
        return cls(
            Rules.from_str(rules),
            MatchFormat.parse(fmt),
            Stakes.parse(stakes),
            int(timer),
            hints == "h",
            int(players),
        )


# How the match is played; left out, the timer and fair dice are the server's settings.
MATCH_OPTIONS = (
    Option("rounds", int, bounds=(1, MAX_ROUNDS), shown=("N",), into="format", written="rounds:{}"),
    Option("format", str, default="rounds:1", values=tuple(FormatKind), shown=FORMAT_FORMS),
    Option("stakes", str, default="none", shown=STAKES_FORMS),
    Option("timer", int, bounds=TIMER_RANGE),
    Option("hints", bool, default=True),
    Option("fair", bool),
)
