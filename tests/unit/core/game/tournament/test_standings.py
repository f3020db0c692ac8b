"""Standings (SPEC 12) as the rules text states them: points, then the opponents' points, then
the average score per match, then the lot."""

from __future__ import annotations

from core.game.tournament.progress import record, start
from core.game.tournament.standings import swiss_standings
from core.game.tournament.values import TableResult
from tests.unit.core.game.tournament.helpers import SEED, entered, result


def test_a_win_scores_two_a_shared_win_one_and_the_bye_two() -> None:
    tournament = start(entered(5), SEED)
    first = tournament.rounds[0]
    (a, b), (c, d) = (t.seats for t in first.tables)
    tournament = record(tournament, 1, 1, TableResult((a,), (0, 9)))
    tournament = record(tournament, 1, 2, TableResult((c, d), (4, 4)))
    lines = {s.player: s for s in swiss_standings(tournament)}
    assert (lines[a].points, lines[b].points, lines[c].points, lines[d].points) == (2, 0, 1, 1)
    assert lines[first.bye].points == 2
    assert lines[first.bye].played == 0


def test_level_points_are_split_by_the_opponents_points_then_the_average() -> None:
    """After round 1 of 4 players, both winners have 2 points and opponents with 0; the lower
    score per match places first. Losers alike: the one with the lower score first."""
    tournament = start(entered(4), SEED)
    (a, b), (c, d) = (t.seats for t in tournament.rounds[0].tables)
    tournament = record(tournament, 1, 1, result((a, b), (5, 9)))
    tournament = record(tournament, 1, 2, result((c, d), (2, 11)))
    assert [s.player for s in swiss_standings(tournament)] == [c, a, b, d]


def test_the_opponents_points_count_every_meeting() -> None:
    tournament = start(entered(4, rounds=2), SEED)
    for number in (1, 2):
        for table in tournament.rounds[number - 1].tables:
            tournament = record(tournament, number, table.number, result(table.seats, (1, 3)))
    lines = swiss_standings(tournament)
    by_player = {s.player: s for s in lines}
    for line in lines:
        met = [p for r in tournament.rounds for t in r.tables if line.player in t.seats
               for p in t.seats if p != line.player]  # fmt: skip
        assert line.opponents_points == sum(by_player[p].points for p in met)
    assert [s.points for s in lines] == sorted((s.points for s in lines), reverse=True)
