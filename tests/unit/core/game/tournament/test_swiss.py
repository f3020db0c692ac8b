"""Swiss pairing (SPEC 12): every player once a round, tables of the stated sizes, a bye for a
player left over, and nobody meeting an opponent again while that can be avoided."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.game.tournament.layout import table_sizes
from core.game.tournament.progress import record, start
from core.game.tournament.standings import BYE_POINTS, swiss_standings
from core.game.tournament.swiss import met_pairs
from core.game.tournament.values import Round, Tournament
from tests.unit.core.game.tournament.helpers import (
    SEED,
    entered,
    play_round,
    played,
    result,
)


def fewest_repeats(tournament: Tournament, sizes: tuple[int, ...], bye: bool) -> int:
    """By brute force: the fewest earlier meetings any seating of the round repeats."""
    met = met_pairs(tournament)
    players = list(tournament.players)
    byes = players if bye else [""]
    return min(
        sum(1 for group in groups for pair in combinations(group, 2) if frozenset(pair) in met)
        for sitting_out in byes
        for groups in groupings([p for p in players if p != sitting_out], list(sizes))
    )


def groupings(players: list[str], sizes: list[int]) -> Iterator[list[tuple[str, ...]]]:
    if not players:
        yield []
        return
    head, others = players[0], players[1:]
    for size in set(sizes):
        rest_sizes = list(sizes)
        rest_sizes.remove(size)
        for mates in combinations(others, size - 1):
            left = [p for p in others if p not in mates]
            for rest in groupings(left, rest_sizes):
                yield [(head, *mates), *rest]


def repeats(tournament: Tournament, round_: Round) -> int:
    met = met_pairs(tournament)
    return sum(1 for t in round_.tables for pair in combinations(t.seats, 2)
               if frozenset(pair) in met)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.integers(2, 4), st.integers(1, 5), st.randoms(use_true_random=False))
def test_every_round_seats_everyone_once_and_repeats_no_meeting_it_can_avoid(
    count: int, size: int, rounds: int, rng: random.Random
) -> None:
    steps = played(entered(count, size=size, rounds=rounds), rng)
    for step in steps[:-1]:
        current = step.current
        assert current is not None
        before = replace(step, rounds=step.rounds[:-1])
        sizes, bye = table_sizes(count, size)
        assert sorted(current.players) == sorted(step.players)
        assert sorted(len(t.seats) for t in current.tables) == sorted(sizes)
        assert bool(current.bye) == bye
        assert repeats(before, current) == fewest_repeats(before, sizes, bye)
    assert len(steps[-1].rounds) == rounds


def test_round_one_seats_the_draw_and_seven_at_tables_of_three_leave_one_bye() -> None:
    """7 players at tables of 3: two full tables and a bye, in the order of the round's draw."""
    tournament = start(entered(7, size=3), SEED)
    first = tournament.rounds[0]
    assert [len(t.seats) for t in first.tables] == [3, 3]
    assert first.bye


def test_the_bye_goes_to_someone_new_and_scores_a_win() -> None:
    tournament, rng = start(entered(5, size=2, rounds=4), SEED), random.Random(5)
    for _ in range(3):
        tournament = play_round(tournament, rng)
    byes = [r.bye for r in tournament.rounds]
    assert len(set(byes)) == len(byes) == 4
    lines = {s.player: s for s in swiss_standings(tournament)}
    assert all(lines[p].byes == 1 for p in byes[:3])
    assert lines[byes[0]].points >= BYE_POINTS


def test_players_level_on_points_meet_each_other() -> None:
    """Round 2 seats the two round-1 winners together (4 players, no rematch needed)."""
    tournament = start(entered(4), SEED)
    for table in tournament.rounds[0].tables:
        tournament = record(tournament, 1, table.number, result(table.seats, (1, 9)))
    winners = {t.seats[0] for t in tournament.rounds[0].tables}
    assert any(set(t.seats) == winners for t in tournament.rounds[1].tables)
    assert repeats(replace(tournament, rounds=tournament.rounds[:1]), tournament.rounds[1]) == 0


def test_a_field_of_64_at_tables_of_two_never_meets_twice_in_ten_rounds() -> None:
    """The bounded search still finds seatings without a repeat for a big field of pairs."""
    final = played(entered(64, size=2, rounds=10), random.Random(1))[-1]
    meetings = [frozenset(t.seats) for r in final.rounds for t in r.tables]
    assert len(meetings) == 320 and len(set(meetings)) == 320
