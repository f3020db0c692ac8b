"""Fair and checkable (SPEC 12): the seed is committed at the start, revealed at the end, and
every round's pairing follows from it and the results before it."""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace

from core.game.tournament.draw import player_draw
from core.game.tournament.progress import cancel, revealed_seed, start
from core.game.tournament.standings import standings
from core.game.tournament.values import Kind, Table
from core.game.tournament.verify import pairing_faults, published
from tests.unit.core.game.tournament.helpers import SEED, entered, played


def test_the_commitment_is_the_sha256_of_the_seed_and_the_seed_shows_only_at_the_end() -> None:
    steps = played(entered(6, size=3), random.Random(3))
    assert steps[0].commitment == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    assert all(revealed_seed(step) == "" for step in steps[:-1])
    assert revealed_seed(steps[-1]) == SEED
    assert revealed_seed(cancel(steps[0])) == SEED


def test_a_finished_tournament_checks_out() -> None:
    for kind in Kind:
        assert pairing_faults(played(entered(7, kind, 3), random.Random(7))[-1]) == []


def test_a_changed_seating_or_a_wrong_seed_is_found() -> None:
    final = played(entered(7, size=2), random.Random(1))[-1]
    second = final.rounds[1]
    swapped = (Table(1, second.tables[0].seats[::-1], second.tables[0].result), *second.tables[1:])
    moved = replace(final, rounds=(final.rounds[0], replace(second, tables=swapped),
                                   *final.rounds[2:]))  # fmt: skip
    assert pairing_faults(moved) == ["round 2 is not the pairing its seed gives"]
    assert pairing_faults(replace(final, seed="cd" * 32)) == [
        "the seed does not match the commitment published at the start"
    ]


def test_round_one_is_seated_in_the_order_of_its_draw() -> None:
    tournament = start(entered(6), SEED)
    seated = [p for t in tournament.rounds[0].tables for p in t.seats]
    assert seated == sorted(tournament.players, key=lambda p: player_draw(tournament, 1, p))


def test_the_published_record_names_entries_by_number_and_still_checks_out() -> None:
    final = played(entered(7, Kind.KNOCKOUT, 2), random.Random(4))[-1]
    shown = published(final)
    assert [e.id for e in shown.entries] == [str(n) for n in range(1, 8)]
    assert not any(p.startswith("p") for r in shown.rounds for p in r.players)
    assert pairing_faults(shown) == []
    assert [s.player for s in standings(shown)] == [
        str(final.players.index(s.player) + 1) for s in standings(final)]
