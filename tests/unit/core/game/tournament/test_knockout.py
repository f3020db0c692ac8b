"""Knockout rounds (SPEC 12): the best of each table goes on, until one player is left."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from core.game.tournament.draw import player_draw
from core.game.tournament.knockout import still_in
from core.game.tournament.progress import record, start
from core.game.tournament.standings import standings
from core.game.tournament.values import Kind, Status, TableResult
from tests.unit.core.game.tournament.helpers import SEED, entered, played


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(2, 4), st.randoms(use_true_random=False))
def test_each_round_seats_the_players_still_in_and_the_champion_places_first(
    count: int, size: int, rng: random.Random
) -> None:
    steps = played(entered(count, Kind.KNOCKOUT, size), rng)
    for step in steps[:-1]:
        current = step.current
        assert current is not None
        before = replace(step, rounds=step.rounds[:-1])
        assert sorted(current.players) == sorted(still_in(before))
        assert all(len(t.seats) >= 2 for t in current.tables)
    assert all(len(r.players) < len(p.players) for p, r in pairwise(steps[-1].rounds))
    final = steps[-1]
    (champion,) = still_in(final)
    assert standings(final)[0].player == champion
    assert sorted(s.player for s in standings(final)) == sorted(final.players)


def test_eight_players_at_tables_of_two_play_three_rounds() -> None:
    steps = played(entered(8, Kind.KNOCKOUT, 2), random.Random(8))
    assert [len(r.tables) for r in steps[-1].rounds] == [4, 2, 1]
    assert not any(r.bye for r in steps[-1].rounds)


def test_of_tied_winners_the_smaller_draw_goes_on() -> None:
    tournament = start(entered(4, Kind.KNOCKOUT, 4), SEED)
    table = tournament.rounds[0].tables[0]
    tied = table.seats[:2]
    done = record(tournament, 1, 1, TableResult(tied, (3, 3, 8, 9)))
    expected = min(tied, key=lambda p: player_draw(tournament, 1, p))
    assert done.status is Status.FINISHED
    assert still_in(done) == (expected,)
    runner_up = next(p for p in tied if p != expected)
    assert [s.player for s in standings(done)][:2] == [expected, runner_up]


def test_players_still_in_are_ordered_by_their_score_at_the_table_they_won() -> None:
    tournament = start(entered(4, Kind.KNOCKOUT, 2), SEED)
    first, second = tournament.rounds[0].tables
    tournament = record(tournament, 1, 1, TableResult((first.seats[0],), (9, 20)))
    tournament = record(tournament, 1, 2, TableResult((second.seats[0],), (3, 20)))
    assert len(tournament.rounds) == 2  # the final is being played
    order = [s.player for s in standings(tournament)]
    assert order[:2] == [second.seats[0], first.seats[0]]  # 3 before 9
    assert set(order[2:]) == {first.seats[1], second.seats[1]}  # beaten, both on 20: the lot
