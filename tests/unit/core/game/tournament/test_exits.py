"""A knockout's standings say where each player stands: still in, out in which round at which
table with what score, or the winner; never Swiss points."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core.game.tournament.draw import player_draw
from core.game.tournament.exits import exits
from core.game.tournament.progress import record, start
from core.game.tournament.standings import knockout_standings
from core.game.tournament.values import Kind, TableResult
from tests.unit.core.game.tournament.helpers import SEED, entered, played


def test_a_beaten_player_is_out_where_and_with_the_score_they_lost() -> None:
    tournament = start(entered(4, Kind.KNOCKOUT, 2), SEED)
    (a, b), (c, d) = (t.seats for t in tournament.rounds[0].tables)
    tournament = record(tournament, 1, 1, TableResult((a,), (3, 17)))
    lines = {line.player: line for line in exits(tournament)}
    assert not lines[a].out and not lines[c].out and not lines[d].out  # table 2 still plays
    assert (lines[b].round, lines[b].table, lines[b].score, lines[b].tied) == (1, 1, 17, False)


def test_a_tied_winner_who_did_not_go_on_is_out_on_the_draw() -> None:
    tournament = start(entered(3, Kind.KNOCKOUT, 3), SEED)
    seats = tournament.rounds[0].tables[0].seats
    tournament = record(tournament, 1, 1, TableResult(seats[:2], (4, 4, 9)))
    on = min(seats[:2], key=lambda p: player_draw(tournament, 1, p))
    (other,) = set(seats[:2]) - {on}
    lines = {line.player: line for line in exits(tournament)}
    assert lines[on].champion and lines[other].tied and lines[other].score == 4
    assert lines[seats[2]].out and not lines[seats[2]].tied


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(2, 4), st.randoms(use_true_random=False))
def test_over_a_whole_knockout_one_winner_and_everyone_else_out_in_standings_order(
    count: int, size: int, rng: random.Random
) -> None:
    steps = played(entered(count, Kind.KNOCKOUT, size), rng)
    for step in steps[:-1]:
        lines = exits(step)
        assert [line.player for line in lines] == [s.player for s in knockout_standings(step)]
        assert step.current is not None  # a round just drawn: everyone at it is still in
        assert {line.player for line in lines if not line.out} == set(step.current.players)
        assert not any(line.champion for line in lines)
    final = exits(steps[-1])
    assert final[0].champion and all(line.out for line in final[1:])
    assert [line.round for line in final[1:]] == sorted((line.round for line in final[1:]),
                                                        reverse=True)  # fmt: skip
