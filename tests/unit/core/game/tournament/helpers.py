"""Tournaments built and played with results drawn at random, for the properties below."""

from __future__ import annotations

import random

from core.game.tournament.progress import join, record, start
from core.game.tournament.values import Entry, Kind, Settings, Status, TableResult, Tournament

SEED = "ab" * 32


def entered(count: int, kind: Kind = Kind.SWISS, size: int = 2, rounds: int = 3,
            fee: int = 0) -> Tournament:  # fmt: skip
    tournament = Tournament("cup1", Settings("Friday cup", kind, rounds, table_size=size, fee=fee))
    for index in range(count):
        tournament = join(tournament, Entry(f"p{index}", f"Player {index}"))
    return tournament


def result(seats: tuple[str, ...], totals: tuple[int, ...]) -> TableResult:
    best = min(totals)
    return TableResult(tuple(p for p, t in zip(seats, totals, strict=True) if t == best), totals)


def play_round(tournament: Tournament, rng: random.Random) -> Tournament:
    """Every table of the current round ends with random totals (ties happen)."""
    current = tournament.current
    assert current is not None
    for table in current.tables:
        totals = tuple(rng.randint(0, 6) for _ in table.seats)
        tournament = record(tournament, current.number, table.number, result(table.seats, totals))
    return tournament


def played(tournament: Tournament, rng: random.Random, seed: str = SEED) -> list[Tournament]:
    """Every step from the start to the end."""
    steps = [start(tournament, seed)]
    while steps[-1].status is Status.RUNNING:
        steps.append(play_round(steps[-1], rng))
    return steps
