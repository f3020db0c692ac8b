"""Standings and their tiebreaks, as the rules text states them.

Swiss: a table's winner scores 2 points, each of tied winners 1, everyone else 0; a bye
scores 2. Places go by points, then the sum of the points of every opponent met (each meeting
counts), then the average score per match played (lower is better, as in the game), then the
tournament's lot (round 0's draw).

Knockout: a player knocked out later places higher; among players knocked out in the same
round, the one who won their last table comes first (the champion, once the final is over),
then a winner who lost the tie for going on, then the lower score at that table, then the lot.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from core.game.tournament.draw import player_draw
from core.game.tournament.knockout import going_on
from core.game.tournament.values import Kind, Round, Table, Tournament

WIN_POINTS = 2
SHARED_WIN_POINTS = 1
BYE_POINTS = 2
NO_AVERAGE = Fraction(10**9)  # a player who only had byes sorts after every average


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line: points, tiebreaks and what they come from."""

    player: str
    points: int
    opponents_points: int
    played: int
    total: int
    wins: int
    byes: int
    lot: str

    @property
    def average(self) -> Fraction:
        return Fraction(self.total, self.played) if self.played else NO_AVERAGE


def table_points(table: Table, player: str) -> int:
    """What one finished table gives a player."""
    assert table.result is not None
    winners = table.result.winners
    if player not in winners:
        return 0
    return WIN_POINTS if len(winners) == 1 else SHARED_WIN_POINTS


def points(rounds: Iterable[Round], players: Iterable[str]) -> dict[str, int]:
    """Swiss points after the given (finished) rounds."""
    score = dict.fromkeys(players, 0)
    for round_ in rounds:
        if round_.bye:
            score[round_.bye] += BYE_POINTS
        for table in round_.tables:
            for player in table.seats if table.done else ():
                score[player] += table_points(table, player)
    return score


def opponents(rounds: Iterable[Round], player: str) -> list[str]:
    """Everyone the player sat with, once per meeting."""
    met: list[str] = []
    for round_ in rounds:
        for table in round_.tables:
            if player in table.seats:
                met += [p for p in table.seats if p != player]
    return met


def swiss_standings(tournament: Tournament) -> tuple[Standing, ...]:
    """Every player's line, best first, after the rounds that are finished."""
    finished = [r for r in tournament.rounds if r.done]
    score = points(finished, tournament.players)
    lines = [_line(tournament, finished, score, p) for p in tournament.players]
    return tuple(sorted(lines, key=lambda s: (-s.points, -s.opponents_points, s.average, s.lot)))


def _line(tournament: Tournament, finished: list[Round], score: dict[str, int],
          player: str) -> Standing:  # fmt: skip
    tables = [t for r in finished for t in r.tables if player in t.seats]
    return Standing(
        player=player,
        points=score[player],
        opponents_points=sum(score[p] for p in opponents(finished, player)),
        played=len(tables),
        total=sum(t.total_of(player) for t in tables),
        wins=sum(1 for t in tables if t.result is not None and player in t.result.winners),
        byes=sum(1 for r in finished if r.bye == player),
        lot=lot(tournament, player),
    )


def lot(tournament: Tournament, player: str) -> str:
    """The last tiebreak: round 0's draw (before the start, the player's id)."""
    return player_draw(tournament, 0, player) if tournament.seed else player


def knockout_standings(tournament: Tournament) -> tuple[Standing, ...]:
    """Every player's line, the champion (or the players still in) first."""
    finished = [r for r in tournament.rounds if r.done]
    score = points(finished, tournament.players)
    lines = {p: _line(tournament, finished, score, p) for p in tournament.players}
    return tuple(sorted(lines.values(), key=lambda s: _knockout_key(tournament, s)))


def _knockout_key(tournament: Tournament, line: Standing) -> tuple[int, int, int, str]:
    """(rounds reached, best first; how the player left their last finished table: went on,
    a tied winner who did not, or beaten; their score there; the lot)."""
    survived, last, number = 0, None, 0
    for round_ in tournament.rounds:
        if line.player not in round_.players:
            break
        survived += 1
        table = next((t for t in round_.tables if line.player in t.seats), None)
        if table is not None and table.result is not None:
            last, number = table, round_.number
    if last is None or last.result is None:
        return (-survived, 0, 0, line.lot)
    # A winner who then left the server did not go on: placed as a tied winner who did not.
    if line.player == going_on(tournament, number, last) and \
            line.player in tournament.paired_in(number + 1):  # fmt: skip
        place = 0
    else:
        place = 1 if line.player in last.result.winners else 2
    return (-survived, place, last.total_of(line.player), line.lot)


def standings(tournament: Tournament) -> tuple[Standing, ...]:
    """The standings the tournament's kind states."""
    if tournament.settings.kind is Kind.KNOCKOUT:
        return knockout_standings(tournament)
    return swiss_standings(tournament)
