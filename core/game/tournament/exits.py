"""Where each player of a knockout stands: still in, out (in which round, at which table, with
what score there), or the winner. A knockout's standings say this instead of Swiss points."""

from __future__ import annotations

from dataclasses import dataclass

from core.game.tournament.knockout import going_on
from core.game.tournament.standings import knockout_standings
from core.game.tournament.values import Status, Tournament


@dataclass(frozen=True, slots=True)
class Exit:
    """One knockout player: `round` 0 while still in; else where they went out. `tied`: they
    won their table with others, and another of the winners went on by the draw."""

    player: str
    round: int = 0
    table: int = 0
    score: int = 0
    tied: bool = False
    champion: bool = False

    @property
    def out(self) -> bool:
        return self.round > 0


def exit_of(tournament: Tournament, player: str) -> Exit:
    """How far `player` has come: the first finished table they did not go on from, if any."""
    for round_ in tournament.rounds:
        table = next((t for t in round_.tables if player in t.seats), None)
        if table is None or table.result is None:
            continue  # a bye, a round the player was not in, or a match still played
        went_on = going_on(tournament, round_.number, table) == player
        if not went_on or player not in tournament.paired_in(round_.number + 1):  # or left
            tied = player in table.result.winners and len(table.result.winners) > 1
            return Exit(player, round_.number, table.number, table.total_of(player), tied)
    return Exit(player)


def exits(tournament: Tournament) -> tuple[Exit, ...]:
    """Every player, in the knockout's standings order; the last one in, once it is over, the
    winner."""
    lines = [exit_of(tournament, line.player) for line in knockout_standings(tournament)]
    over = tournament.status is Status.FINISHED
    if over and lines and not lines[0].out:
        lines[0] = Exit(lines[0].player, champion=True)
    return tuple(lines)
