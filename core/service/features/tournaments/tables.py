"""A tournament's table as an ordinary game: the link its record carries, the match settings
it is played with, and the result it leaves behind.

The keeper writes a finished table's result into the tournament's inbox (`tour:<id>:results`,
field `<round>:<table>`) in the same commit that ends the match; that commit also counts it in
the tournament's record (core/service/features/tournaments/advance.py). The inbox stays as the
table's kept result, which `Book.catch_up` counts harmlessly again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote, unquote

from core.game.events import MatchEnded
from core.game.match import MatchConfig
from core.game.numbers import is_digits, stored_int
from core.game.state import GameState
from core.game.tournament.values import Settings, TableResult
from core.service.features.keeping import Change
from core.service.model import keys
from core.service.model.commit import OpKind, StoreOp


@dataclass(frozen=True, slots=True)
class TableLink:
    """Which tournament table a game is."""

    tournament: str
    round: int
    table: int

    def to_str(self) -> str:
        return f"{self.tournament}:{self.round}:{self.table}"

    @classmethod
    def parse(cls, text: str) -> TableLink | None:
        tournament, _, rest = text.partition(":")
        number, _, table = rest.partition(":")
        # only ASCII digits: `²` passes isdigit() and then makes int() raise
        if not (tournament and is_digits(number) and is_digits(table)):
            return None
        return cls(tournament, int(number), int(table))


# How long a surface remembers that it opened a table's thread or posted a round's standings,
# so a late repeat of the same delivery never opens a second thread: longer than any round.
ONCE_SECONDS = 86_400


def inbox(tournament_id: str) -> str:
    """The key of the results its tables have left and the tournament may not have counted."""
    return keys.tournament_results(tournament_id)


def games(tournament_id: str) -> str:
    """The key of each table's match id (`<round>:<table>`), for the page's replays."""
    return keys.tournament_games(tournament_id)


def table_config(settings: Settings, timer: int) -> MatchConfig:
    """Every table plays the tournament's rules and format, for no stakes, with hints off."""
    return MatchConfig(settings.rules, settings.format, timer=timer, hints=False,
                       max_players=settings.table_size)  # fmt: skip


def result_of(state: GameState, winners: tuple[int, ...]) -> TableResult:
    seats = state.seats
    return TableResult(tuple(seats[i].id for i in winners), tuple(s.total for s in seats))


def table_result(state: GameState) -> TableResult:
    """A finished table's result. A table an admin stopped has no winner: it counts as a tie
    of everyone seated, so the round still ends (in a knockout the lower draw goes on)."""
    return result_of(state, state.winners or tuple(range(len(state.seats))))


def result_text(result: TableResult) -> str:
    winners = "*".join(quote(w, safe="") for w in result.winners)
    return f"{winners}@" + "*".join(map(str, result.totals))


def parse_place(field: str) -> tuple[int, int] | None:
    """An inbox field `<round>:<table>`, or None when it is not two stored whole numbers."""
    number, _, table = field.partition(":")
    found = stored_int(number), stored_int(table)
    return (found[0], found[1]) if found[0] is not None and found[1] is not None else None


def parse_result(text: str) -> TableResult | None:
    """A result as `result_text` wrote it, or None when the stored text is not one."""
    winners, at, totals = text.partition("@")
    numbers = [stored_int(n) for n in totals.split("*")]
    if not (winners and at) or any(n is None for n in numbers):
        return None
    return TableResult(tuple(unquote(w) for w in winners.split("*")),
                       tuple(n for n in numbers if n is not None))  # fmt: skip


def kept(change: Change) -> Iterable[StoreOp]:
    """A tournament table's match is over: its result goes to the tournament's inbox."""
    link = TableLink.parse(change.record.tour)
    ended = next((e for e in change.events if isinstance(e, MatchEnded)), None)
    if link is None or ended is None:
        return ()
    result = table_result(change.record.state)
    field = f"{link.round}:{link.table}"
    return (StoreOp(OpKind.HSET, inbox(link.tournament), field, result_text(result)),
            StoreOp(OpKind.HSET, games(link.tournament), field, change.record.game_id))
