"""Entries, the start, results and the rounds' advance (SPEC 12): each step once."""

from __future__ import annotations

import pytest

from core.game.match import MatchFormat
from core.game.tournament.errors import (
    AlreadyEntered,
    InvalidTournament,
    NotEntered,
    TooFewEntries,
    TournamentClosed,
)
from core.game.tournament.progress import cancel, join, leave, record, start
from core.game.tournament.values import Entry, Kind, Settings, Status
from tests.unit.core.game.tournament.helpers import SEED, entered, result


def test_joining_twice_or_leaving_without_an_entry_is_refused() -> None:
    tournament = entered(2)
    with pytest.raises(AlreadyEntered):
        join(tournament, Entry("p0", "Again"))
    with pytest.raises(NotEntered):
        leave(tournament, "nobody")
    assert leave(tournament, "p0").players == ("p1",)


def test_nobody_joins_or_leaves_once_it_has_started_and_one_player_cannot_start() -> None:
    with pytest.raises(TooFewEntries):
        start(entered(1), SEED)
    running = start(entered(2), SEED)
    with pytest.raises(TournamentClosed):
        join(running, Entry("p9", "Late"))
    with pytest.raises(TournamentClosed):
        leave(running, "p0")


def test_a_result_counts_once_and_the_round_advances_with_its_last_table() -> None:
    tournament = start(entered(4, rounds=2), SEED)
    first, second = tournament.rounds[0].tables
    once = record(tournament, 1, 1, result(first.seats, (1, 2)))
    assert record(once, 1, 1, result(first.seats, (9, 0))) == once
    assert len(once.rounds) == 1
    advanced = record(once, 1, 2, result(second.seats, (1, 2)))
    assert len(advanced.rounds) == 2
    assert record(advanced, 1, 2, result(second.seats, (1, 2))) == advanced


def test_the_last_round_finishes_the_tournament_and_cancel_needs_one_running() -> None:
    tournament = start(entered(2, rounds=1), SEED)
    seats = tournament.rounds[0].tables[0].seats
    done = record(tournament, 1, 1, result(seats, (0, 4)))
    assert done.status is Status.FINISHED
    with pytest.raises(TournamentClosed):
        cancel(done)
    assert cancel(tournament).status is Status.CANCELLED


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"name": ""}, "error.tournament.name"),
        ({"rounds": 11}, "error.tournament.rounds"),
        ({"table_size": 5}, "error.tournament.table"),
        ({"format": MatchFormat.parse("long"), "table_size": 3}, "error.tournament.table_long"),
        ({"fee": 1_000_001}, "error.tournament.fee"),
        ({"split": (50, 40)}, "error.tournament.split"),
    ],
)
def test_settings_that_cannot_be_used_say_which(change: dict[str, object], key: str) -> None:
    fields: dict[str, object] = {"name": "Cup", "kind": Kind.SWISS} | change
    with pytest.raises(InvalidTournament) as caught:
        Settings(**fields)  # type: ignore[arg-type]
    assert caught.value.key == key
