"""A player who left the server once the tournament had started (SPEC 12): paired in no later
round, their results and place kept, the record round-trips and its pairings still verify."""

from __future__ import annotations

import random
from dataclasses import replace

from core.game.tournament.draw import commitment
from core.game.tournament.progress import record, start, withdraw
from core.game.tournament.standings import standings
from core.game.tournament.text_form import from_text, to_text
from core.game.tournament.values import Kind, Status, Tournament
from core.game.tournament.verify import pairing_faults, published
from tests.unit.core.game.tournament.helpers import SEED, entered, play_round, result


def last_table_ends_without(tournament: Tournament, player: str) -> Tournament:
    """Every table of the round but the last ends; `player` leaves; then the last ends."""
    current = tournament.current
    assert current is not None
    *first, last = current.tables
    for table in first:
        tournament = record(tournament, current.number, table.number,
                            result(table.seats, tuple(range(len(table.seats)))))  # fmt: skip
    tournament = withdraw(tournament, frozenset({player}))
    totals = tuple(range(len(last.seats)))
    return record(tournament, current.number, last.number, result(last.seats, totals))


def test_a_swiss_player_who_left_is_paired_in_no_later_round_and_keeps_their_place() -> None:
    running = start(entered(4, rounds=3), SEED)
    after = last_table_ends_without(running, "p1")
    assert after.out == (("p1", 1),)
    assert after.current is not None and "p1" not in after.current.players
    assert len(after.current.players) == 3  # one table of 2 and a bye
    assert "p1" in {line.player for line in standings(after)}
    rng = random.Random(4)
    while after.status is Status.RUNNING:
        after = play_round(after, rng)
        assert after.current is not None and "p1" not in after.current.players
    assert from_text(to_text(after)) == after
    assert pairing_faults(after) == []
    assert published(after).out == (("2", 1),)


def test_a_knockout_winner_who_left_does_not_go_on() -> None:
    running = start(entered(8, kind=Kind.KNOCKOUT), SEED)
    current = running.current
    assert current is not None
    winner = current.tables[-1].seats[0]  # totals 0, 1: the first seat wins the last table
    after = last_table_ends_without(running, winner)
    assert after.current is not None and after.current.number == 2
    assert winner not in after.current.players and len(after.current.players) == 3


def test_a_knockout_final_with_one_finalist_gone_ends_with_the_other_first() -> None:
    running = start(entered(4, kind=Kind.KNOCKOUT), SEED)
    current = running.current
    assert current is not None
    gone, other = current.tables[-1].seats[0], current.tables[0].seats[0]
    after = last_table_ends_without(running, gone)
    assert after.status is Status.FINISHED and len(after.rounds) == 1
    assert standings(after)[0].player == other


def test_with_fewer_than_two_players_left_to_pair_the_tournament_ends() -> None:
    running = start(entered(2, rounds=3), SEED)
    after = last_table_ends_without(running, "p1")
    assert after.status is Status.FINISHED and len(after.rounds) == 1


def test_a_record_without_anyone_out_keeps_its_old_form() -> None:
    running = start(entered(2), SEED)
    assert to_text(running).count("|") == 7
    assert replace(running, seed=SEED).commitment == commitment(SEED)
