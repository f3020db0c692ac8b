"""What happens to a tournament: entries, the start, each table's result, the next round, the end.

Every step is a pure function from one tournament to the next. A table's result is recorded
once: the same result again changes nothing, and the round that its last result finishes is
followed, in that same step, by the next round or the end.
"""

from __future__ import annotations

from dataclasses import replace

from core.game.tournament.draw import commitment
from core.game.tournament.errors import (
    AlreadyEntered,
    NotEntered,
    TooFewEntries,
    TournamentClosed,
    TournamentFull,
)
from core.game.tournament.knockout import knockout_round, still_in
from core.game.tournament.swiss import swiss_round
from core.game.tournament.values import (
    MAX_ENTRIES,
    Entry,
    Kind,
    Round,
    Status,
    TableResult,
    Tournament,
)


def join(tournament: Tournament, entry: Entry) -> Tournament:
    """Enter a player while the tournament takes entries."""
    _must_be_open(tournament)
    if tournament.entered(entry.id):
        raise AlreadyEntered(name=tournament.settings.name)
    if len(tournament.entries) >= MAX_ENTRIES:
        raise TournamentFull(max=MAX_ENTRIES)
    return replace(tournament, entries=(*tournament.entries, entry))


def leave(tournament: Tournament, player: str) -> Tournament:
    """Take a player's entry back before the start."""
    _must_be_open(tournament)
    if not tournament.entered(player):
        raise NotEntered(name=tournament.settings.name)
    return replace(tournament, entries=tuple(e for e in tournament.entries if e.id != player))


def _must_be_open(tournament: Tournament) -> None:
    if tournament.status is not Status.OPEN:
        raise TournamentClosed(name=tournament.settings.name, status=tournament.status.value)


def start(tournament: Tournament, seed: str) -> Tournament:
    """Commit to the seed and pair round 1."""
    _must_be_open(tournament)
    if len(tournament.entries) < 2:
        raise TooFewEntries(name=tournament.settings.name)
    running = replace(tournament, status=Status.RUNNING, seed=seed, commitment=commitment(seed))
    return replace(running, rounds=(next_round(running),))


def next_round(tournament: Tournament) -> Round:
    """The round after the tournament's last one (all of whose tables are finished)."""
    number = len(tournament.rounds) + 1
    if tournament.settings.kind is Kind.KNOCKOUT:
        return knockout_round(tournament, number, still_in(tournament))
    return swiss_round(tournament, number)


def is_last_round(tournament: Tournament) -> bool:
    """Whether the finished current round ends the tournament."""
    if tournament.settings.kind is Kind.KNOCKOUT:
        return len(still_in(tournament)) <= 1
    next_one = len(tournament.rounds) + 1  # fewer than 2 left to pair: nothing more to play
    return next_one > tournament.settings.rounds or len(tournament.paired_in(next_one)) < 2


def record(tournament: Tournament, number: int, table: int, result: TableResult) -> Tournament:
    """A table's match is over: keep its result, then pair the next round or finish."""
    current = tournament.current
    if tournament.status is not Status.RUNNING or current is None or current.number != number:
        return tournament  # a replay of an earlier round's result: already counted
    if not 1 <= table <= len(current.tables):
        raise ValueError(f"round {number} has no table {table}")
    if current.tables[table - 1].result is not None:
        return tournament
    tables = tuple(replace(t, result=result) if t.number == table else t for t in current.tables)
    finished = replace(current, tables=tables)
    recorded = replace(tournament, rounds=(*tournament.rounds[:-1], finished))
    if not recorded.rounds[-1].done:
        return recorded
    if is_last_round(recorded):
        return replace(recorded, status=Status.FINISHED)
    return replace(recorded, rounds=(*recorded.rounds, next_round(recorded)))


def withdraw(tournament: Tournament, players: frozenset[str]) -> Tournament:
    """Players who left the server: paired in no round after those paired so far."""
    paired = len(tournament.rounds)
    out = tuple((p, paired) for p in tournament.paired_in(paired + 1) if p in players)
    return replace(tournament, out=(*tournament.out, *out)) if out else tournament


def cancel(tournament: Tournament) -> Tournament:
    """Call the tournament off (every fee goes back: the store's part)."""
    if tournament.status in (Status.FINISHED, Status.CANCELLED):
        raise TournamentClosed(name=tournament.settings.name, status=tournament.status.value)
    return replace(tournament, status=Status.CANCELLED)


def revealed_seed(tournament: Tournament) -> str:
    """The seed as players may see it: only once no round is left to pair."""
    over = tournament.status in (Status.FINISHED, Status.CANCELLED)
    return tournament.seed if over else ""
