"""Swiss rounds: players ranked by the standings, tables filled from the top, nobody meeting the
same opponent twice while that can be avoided, and a bye for a player left over.

How a round is paired (what `shutbox verify` repeats):
1. Rank the players by the standings after the finished rounds; the round's draw breaks the
   ties the standings leave (so round 1 is seated in draw order).
2. When the players don't fill the tables (`layout.py`), one has a bye: the lowest-ranked
   player who has not had one yet (while anyone hasn't), unless another choice meets fewer
   players again.
3. The highest-ranked unseated player heads the next table (a full one before a smaller one)
   and is joined by the next highest-ranked players; seatings are tried in that order, and
   the first that repeats no earlier meeting is taken, else the first that repeats the fewest.
   Tables are numbered by their best-ranked player.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations

from core.game.tournament.draw import player_draw
from core.game.tournament.layout import table_sizes
from core.game.tournament.standings import swiss_standings
from core.game.tournament.values import Round, Table, Tournament

# Tables tried a round, over every choice of bye. Past the budget the best seating found so
# far is taken (each choice of bye still gets its first seating, found depth first), so a field
# of 64 is paired in a fraction of a second; small fields are searched to the end.
SEARCH_BUDGET = 20_000


def met_pairs(tournament: Tournament) -> frozenset[frozenset[str]]:
    """Every pair of players who have sat at one table."""
    return frozenset(
        frozenset(pair)
        for round_ in tournament.rounds
        for table in round_.tables
        for pair in combinations(table.seats, 2)
    )


def ranking(tournament: Tournament, number: int) -> list[str]:
    """The players, best first, as round `number` is paired."""
    lines = {s.player: s for s in swiss_standings(tournament)}
    return sorted(
        tournament.paired_in(number),
        key=lambda p: (-lines[p].points, -lines[p].opponents_points, lines[p].average,
                       player_draw(tournament, number, p)),
    )  # fmt: skip


def swiss_round(tournament: Tournament, number: int) -> Round:
    """Round `number` of a Swiss tournament whose earlier rounds are all finished."""
    ranked = ranking(tournament, number)
    sizes, bye = table_sizes(len(ranked), tournament.settings.table_size)
    met = met_pairs(tournament)
    had_bye = {r.bye for r in tournament.rounds}
    best: tuple[tuple[int, int], str, list[tuple[str, ...]]] | None = None
    search = _Search(met, sizes)  # one budget for the whole round, every bye tried included
    for candidate in _bye_candidates(ranked, had_bye) if bye else [""]:
        seated = [p for p in ranked if p != candidate]
        found = search.best(seated)
        cost = (found.repeats, int(candidate in had_bye))
        if best is None or cost < best[0]:
            best = (cost, candidate, found.tables)
        if cost == (0, 0):
            break
    assert best is not None
    _, by, tables = best
    return Round(number, tuple(Table(i, seats) for i, seats in enumerate(tables, 1)), by)


def _bye_candidates(ranked: list[str], had_bye: set[str]) -> list[str]:
    """Lowest-ranked first; players without a bye before those with one."""
    lowest_first = ranked[::-1]
    return [p for p in lowest_first if p not in had_bye] + [p for p in lowest_first if p in had_bye]


@dataclass
class _Found:
    repeats: int = 1 << 30
    tables: list[tuple[str, ...]] = field(default_factory=list)


class _Search:
    """A depth-first search over seatings in rank order, bounded by the best found so far."""

    def __init__(self, met: frozenset[frozenset[str]], sizes: tuple[int, ...]) -> None:
        self.met, self.sizes, self.budget = met, sizes, SEARCH_BUDGET
        self.found = _Found()

    def best(self, seated: list[str]) -> _Found:
        """The best seating of these players the remaining budget finds (its first seating
        is always found: the search goes depth first)."""
        self.found = _Found()
        self._seat(seated, [], 0)
        return self.found

    def _seat(self, left: list[str], tables: list[tuple[str, ...]], repeats: int) -> None:
        if repeats >= self.found.repeats or self.found.repeats == 0:
            return
        if not left:
            self.found = _Found(repeats, list(tables))
            return
        sizes_left = list(self.sizes)
        for table in tables:
            sizes_left.remove(len(table))
        for size in sorted(set(sizes_left), reverse=True):  # a full table first
            for table, rest in self._tables_headed_by(left, size):
                if (self.budget <= 0 and self.found.tables) or self.found.repeats == 0:
                    return
                self.budget -= 1  # every table tried counts: a big field stays quick
                cost = repeats + self._repeats(table)
                if cost < self.found.repeats:
                    self._seat(rest, [*tables, table], cost)

    def _tables_headed_by(self, left: list[str],
                          size: int) -> Iterator[tuple[tuple[str, ...], list[str]]]:  # fmt: skip
        head, others = left[0], left[1:]
        for mates in combinations(range(len(others)), size - 1):
            table = (head, *(others[i] for i in mates))
            yield table, [p for i, p in enumerate(others) if i not in mates]

    def _repeats(self, table: tuple[str, ...]) -> int:
        return sum(1 for pair in combinations(table, 2) if frozenset(pair) in self.met)
