"""Knockout rounds: tables filled in the order of the round's draw; the best of each table goes on.

A table's winner goes on; of tied winners, the one with the smaller draw for that round. The
player with the bye goes on too. The tournament is over when one player is left.
"""

from __future__ import annotations

from core.game.tournament.draw import player_draw
from core.game.tournament.layout import table_sizes
from core.game.tournament.values import Round, Table, Tournament


def going_on(tournament: Tournament, number: int, table: Table) -> str:
    """Who goes on from a finished table of round `number`."""
    assert table.result is not None
    return min(table.result.winners, key=lambda p: player_draw(tournament, number, p))


def still_in(tournament: Tournament) -> tuple[str, ...]:
    """The players who play the next round (after the last finished round)."""
    last = tournament.current
    if last is None:
        return tournament.players
    gone_on = [going_on(tournament, last.number, table) for table in last.tables]
    still = (*gone_on, last.bye) if last.bye else tuple(gone_on)
    playing = tournament.paired_in(last.number + 1)  # a winner who left goes no further
    return tuple(p for p in still if p in playing)


def knockout_round(tournament: Tournament, number: int, players: tuple[str, ...]) -> Round:
    """Round `number`: in draw order, the players fill the tables; the last one has any bye."""
    ordered = sorted(players, key=lambda p: player_draw(tournament, number, p))
    sizes, bye = table_sizes(len(ordered), tournament.settings.table_size)
    tables, start = [], 0
    for index, size in enumerate(sizes, start=1):
        tables.append(Table(index, tuple(ordered[start : start + size])))
        start += size
    return Round(number, tuple(tables), ordered[-1] if bye else "")
