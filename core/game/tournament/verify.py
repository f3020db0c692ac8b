"""Checking a tournament's pairings once its seed is revealed: the seed must match the
commitment, and every round must be the round the rules pair from the results before it."""

from __future__ import annotations

from dataclasses import replace

from core.game.tournament.draw import commitment, is_server_seed
from core.game.tournament.progress import next_round
from core.game.tournament.values import Round, Tournament


def seating(round_: Round) -> tuple[tuple[tuple[str, ...], ...], str]:
    """What a round's pairing decided: who sits at which table, and who has the bye."""
    return tuple(t.seats for t in round_.tables), round_.bye


def pairing_faults(tournament: Tournament) -> list[str]:
    """What does not hold, one line each (empty: the seed and every round check out)."""
    if not is_server_seed(tournament.seed):
        return ["the seed is not revealed (64 lowercase hex digits)"]
    if commitment(tournament.seed) != tournament.commitment:
        return ["the seed does not match the commitment published at the start"]
    faults = []
    for index, played in enumerate(tournament.rounds):
        before = replace(tournament, rounds=tournament.rounds[:index])
        if seating(next_round(before)) != seating(played):
            faults.append(f"round {played.number} is not the pairing its seed gives")
    return faults


def published(tournament: Tournament) -> Tournament:
    """The tournament as its record is published: each player named by their number in the
    order of entry (the draws' own), never by a platform id; names, seats and results kept."""
    number = {player: str(index) for index, player in enumerate(tournament.players, start=1)}
    rounds = tuple(
        replace(round_, bye=number.get(round_.bye, ""), tables=tuple(
            replace(table, seats=tuple(number[p] for p in table.seats), result=None
                    if table.result is None else replace(
                        table.result, winners=tuple(number[p] for p in table.result.winners)))
            for table in round_.tables))
        for round_ in tournament.rounds
    )  # fmt: skip
    entries = tuple(replace(entry, id=number[entry.id]) for entry in tournament.entries)
    out = tuple((number[player], paired) for player, paired in tournament.out)
    return replace(tournament, entries=entries, rounds=rounds, out=out)
