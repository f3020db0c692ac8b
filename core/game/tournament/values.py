"""A tournament as frozen values: its settings, entries, and rounds of tables with results."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from itertools import pairwise

from core.game.match import FormatKind, MatchFormat
from core.game.numbers import MAX_AMOUNT
from core.game.rules import Rules
from core.game.tournament.errors import InvalidTournament

MAX_SWISS_ROUNDS = 10
TABLE_SIZES = (2, 3, 4)
MAX_FEE = MAX_AMOUNT
MAX_NAME = 60
MAX_PLACES = 10
MAX_ENTRIES = 64
DEFAULT_SPLIT = (60, 30, 10)


class Kind(StrEnum):
    SWISS = "swiss"
    KNOCKOUT = "knockout"


class Status(StrEnum):
    OPEN = "open"  # taking entries
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything an admin chooses at `create`; `starts_at` is a UTC Unix time, 0 for "by hand"."""

    name: str
    kind: Kind = Kind.SWISS
    rounds: int = 3  # Swiss only; a knockout plays until one player is left
    rules: Rules = field(default_factory=Rules)
    format: MatchFormat = field(default_factory=MatchFormat)
    table_size: int = 2
    fee: int = 0
    split: tuple[int, ...] = DEFAULT_SPLIT
    starts_at: int = 0

    def __post_init__(self) -> None:
        if not 1 <= len(self.name) <= MAX_NAME or not self.name.isprintable():
            raise InvalidTournament("error.tournament.name", max=MAX_NAME)
        if self.kind is Kind.SWISS and not 1 <= self.rounds <= MAX_SWISS_ROUNDS:
            raise InvalidTournament("error.tournament.rounds", value=self.rounds,
                                    max=MAX_SWISS_ROUNDS)  # fmt: skip
        if self.table_size not in TABLE_SIZES:
            raise InvalidTournament("error.tournament.table", value=self.table_size)
        if self.format.kind is FormatKind.LONG and self.table_size != 2:
            raise InvalidTournament("error.tournament.table_long", value=self.table_size)
        if not 0 <= self.fee <= MAX_FEE:
            raise InvalidTournament("error.tournament.fee", value=self.fee, max=MAX_FEE)
        check_split(self.split)
        if self.starts_at < 0:
            raise InvalidTournament("error.tournament.start")


def check_split(split: tuple[int, ...]) -> None:
    """A prize split is 1 to 10 places of whole percents, best first, adding up to 100."""
    ordered = all(a >= b for a, b in pairwise(split))
    sizes = 1 <= len(split) <= MAX_PLACES and all(share >= 1 for share in split)
    if not (ordered and sizes and sum(split) == 100):
        shown = "/".join(map(str, split))
        raise InvalidTournament("error.tournament.split", value=shown, max=MAX_PLACES)


@dataclass(frozen=True, slots=True)
class Entry:
    """One entered player: the platform's member id and the name shown."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class TableResult:
    """How a table's match ended: its winners (ties share) and each seat's total, in seat order."""

    winners: tuple[str, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """One match of a round; `seats` are member ids in seating order."""

    number: int
    seats: tuple[str, ...]
    result: TableResult | None = None

    def __post_init__(self) -> None:
        if self.result is None:
            return
        if not self.result.winners or not set(self.result.winners) <= set(self.seats):
            raise ValueError(f"table {self.number}: winners must sit at the table")
        if len(self.result.totals) != len(self.seats):
            raise ValueError(f"table {self.number}: one total per seat")

    @property
    def done(self) -> bool:
        return self.result is not None

    def total_of(self, player: str) -> int:
        assert self.result is not None
        return self.result.totals[self.seats.index(player)]


@dataclass(frozen=True, slots=True)
class Round:
    """A round's tables, and the one player who sits it out (`bye`, "" when nobody does)."""

    number: int
    tables: tuple[Table, ...]
    bye: str = ""

    @property
    def done(self) -> bool:
        return all(table.done for table in self.tables)

    @property
    def players(self) -> tuple[str, ...]:
        seated = tuple(p for table in self.tables for p in table.seats)
        return (*seated, self.bye) if self.bye else seated


@dataclass(frozen=True, slots=True)
class Tournament:
    """A server's tournament; `seed` is secret until the end, `commitment` public from the start."""

    id: str
    settings: Settings
    status: Status = Status.OPEN
    entries: tuple[Entry, ...] = ()
    rounds: tuple[Round, ...] = ()
    seed: str = ""
    commitment: str = ""
    # Players who left the server once it had started: (player, rounds paired by then). They
    # are paired in no later round; their results and places stay.
    out: tuple[tuple[str, int], ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(entry.id for entry in self.entries)

    def paired_in(self, number: int) -> tuple[str, ...]:
        """The players round `number` may seat: every entry but those out before it."""
        gone = {player for player, paired in self.out if paired < number}
        return tuple(p for p in self.players if p not in gone)

    @property
    def pot(self) -> int:
        """The entry fees the tournament holds once it has started."""
        return self.settings.fee * len(self.entries) if self.status is not Status.OPEN else 0

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def name_of(self, player: str) -> str:
        return next((e.name for e in self.entries if e.id == player), player)

    def entered(self, player: str) -> bool:
        return player in self.players
