"""Each change of a tournament as one commit: checked against the version it was read at,
retried on a race, and answered once per request (a replayed delivery changes nothing).

`report` is how a table's end reaches the tournament: the round it finishes is paired (or the
tournament ends and the pot is paid out) in that same commit, exactly once whichever process,
retry or replay reports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from core.game.errors import InsufficientChips, InvalidOption
from core.game.settlement import Transfer
from core.game.tournament import progress
from core.game.tournament.errors import InvalidTournament, TournamentClosed
from core.game.tournament.standings import standings
from core.game.tournament.values import Entry, Settings, Status, TableResult, Tournament
from core.service.features.stats import season_copies
from core.service.features.tournaments import chips
from core.service.features.tournaments.records import (
    NEWS_DUE,
    Stored,
    active,
    hold_key,
    key,
    load,
    rewrite,
)
from core.service.features.tournaments.tables import inbox, parse_place, parse_result
from core.service.model import keys
from core.service.model.commit import Commit, Journal, OpKind, Scope, StoreOp
from core.service.model.commit import Status as CommitStatus
from core.service.model.membership import Membership, NobodyLeft
from core.service.model.ports import GameStore
from core.service.model.unreadable import Unreadable
from core.service.model.unreadable import tournament as unreadable_result

MAX_ATTEMPTS = 8  # another process changed the tournament (or a balance) meanwhile: read again


class NoTournament(InvalidOption):
    """No tournament is open or running in this channel."""

    key = "error.tournament.none"


@dataclass(frozen=True, slots=True)
class Change:
    """A tournament before and after one step (equal when a replay changed nothing)."""

    before: Tournament | None
    after: Tournament
    dropped: tuple[str, ...] = ()  # entries the start took off: they could no longer pay
    channel: str = ""  # the tournament's channel (where its tables' threads hang)
    left: tuple[str, ...] = ()  # entries the start took off: they had left the server

    @property
    def advanced(self) -> bool:
        return self.before is not None and len(self.after.rounds) > len(self.before.rounds)

    @property
    def finished(self) -> bool:
        done = self.before is not None and self.before.status is not Status.FINISHED
        return done and self.after.status is Status.FINISHED


def won(tournament: Tournament) -> tuple[StoreOp, ...]:
    """The winner's line on the "tournaments won" board and in their stats."""
    winner = standings(tournament)[0].player
    kept = [StoreOp(OpKind.HINCRBY, keys.stats(winner), "tournaments_won", 1)]
    board = StoreOp(OpKind.ZINCRBY, keys.board("tournaments"), winner, 1)
    return (board, *kept, *season_copies(kept))


@dataclass(frozen=True, slots=True)
class Write:
    """What a step moves and holds beside the record."""

    transfers: tuple[Transfer, ...] = ()
    holds: tuple[tuple[str, int], ...] = ()
    expected: tuple[tuple[str, int], ...] = ()
    accounts: tuple[str, ...] = ()
    reason: str = "tournament"
    result: str = ""
    ops: tuple[StoreOp, ...] = ()


@dataclass(frozen=True, slots=True)
class Book:
    """A server's tournaments, written through the store's one commit path."""

    store: GameStore
    scope: Scope
    start_balance: int = 100
    request_id: str | None = None
    clock: Callable[[], float] = field(default=lambda: 0.0)
    membership: Membership = field(default_factory=NobodyLeft)
    # Told of a table's result that can't be read: that one result is left uncounted.
    on_unreadable: Callable[[Scope, Unreadable], None] = field(default=lambda scope, error: None)

    async def create(self, channel: str, tournament_id: str, settings: Settings) -> Change:
        if settings.starts_at and settings.starts_at <= self.clock():
            raise InvalidTournament("error.tournament.start")
        if await active(self.store, self.scope, channel) is not None:
            raise InvalidOption("error.tournament.exists")
        new = Tournament(tournament_id, settings)
        if settings.starts_at:  # before the commit: a tournament due is never missing from it
            await self.store.starts.plan(self.scope, tournament_id, settings.starts_at)
        if not await self._commit(Stored(0, new, channel), new, Write()):
            raise InvalidOption("error.tournament.exists")  # created meanwhile elsewhere
        return Change(None, new)

    async def join(self, channel: str, entry: Entry) -> Change:
        for _ in range(MAX_ATTEMPTS):
            stored = await self._active(channel)
            new = progress.join(stored.tournament, entry)
            fee = new.settings.fee
            balance = (await self.store.balances(self.scope, [entry.id])).get(
                entry.id, self.start_balance)
            if balance < fee:
                raise InsufficientChips("error.tournament.fee_short", fee=fee, balance=balance)
            write = Write(holds=chips.fee_holds(new, (entry.id,)), accounts=(entry.id,),
                          expected=((entry.id, balance),) if fee else ())  # fmt: skip
            if await self._commit(stored, new, write):
                return Change(stored.tournament, new)
        raise InvalidOption("error.busy")

    async def leave(self, channel: str, player: str) -> Change:
        return await self._step(channel, lambda t: progress.leave(t, player), (player,))

    async def cancel(self, channel: str) -> Change:
        return await self._step(channel, progress.cancel, ())

    async def _step(self, channel: str, step: Callable[[Tournament], Tournament],
                    released: tuple[str, ...]) -> Change:  # fmt: skip
        for _ in range(MAX_ATTEMPTS):
            stored = await self._active(channel)
            old = stored.tournament
            new = step(old)
            started = old.status is Status.RUNNING
            players = old.players if new.status is Status.CANCELLED else released
            write = Write(transfers=chips.refunds(old) if started and new.status is
                          Status.CANCELLED else (), holds=chips.fee_holds(new, players))
            if await self._commit(stored, new, write):
                return Change(old, new)
        raise InvalidOption("error.busy")

    async def start(self, channel: str, seed: str, told_later: bool = False) -> Change:
        """Entry fees into the pot and round 1 paired; a player who can no longer pay is
        taken off the entries first. `told_later`: the start is announced after the commit
        (not as the command's answer), so it stays due until told (advance.py)."""
        for _ in range(MAX_ATTEMPTS):
            stored = await self._active(channel)
            old = stored.tournament
            if old.status is not Status.OPEN:
                raise TournamentClosed(name=old.settings.name, status=old.status.value)
            balances = await self.store.balances(self.scope, list(old.players))
            owing = {p: balances.get(p, self.start_balance) for p in old.players}
            # A member who left the server is taken off and their held fee released.
            gone = await self.membership.left(self.scope, old.players)
            left = tuple(p for p in old.players if p in gone)
            short = tuple(p for p, b in owing.items() if b < old.settings.fee and p not in gone)
            paying = replace(old, entries=tuple(e for e in old.entries
                                                if e.id not in short and e.id not in gone))
            new = progress.start(paying, seed)
            due = (StoreOp(OpKind.HSET, key(new.id), NEWS_DUE, "1"),) if told_later else ()
            write = Write(transfers=chips.fees_in(new), holds=chips.fee_holds(new, old.players),
                          expected=tuple(owing.items()), accounts=old.players, ops=due)  # fmt: skip
            if await self._commit(stored, new, write):
                return Change(old, new, short, stored.channel, left)
        raise InvalidOption("error.busy")

    async def report(self, tournament_id: str, number: int, table: int,
                     result: TableResult) -> Change:  # fmt: skip
        """A table's match is over: its result, and the next round or the prizes, once."""
        for _ in range(MAX_ATTEMPTS):
            stored = await load(self.store, self.scope, tournament_id)
            if stored is None:
                raise NoTournament()
            old = stored.tournament
            new = progress.record(old, number, table, result)
            if new == old:
                return Change(old, old, channel=stored.channel)
            over = new.status is Status.FINISHED
            write = Write(transfers=chips.prize_transfers(new), ops=won(new)) if over else Write()
            if await self._commit(stored, new, write):
                return Change(old, new, channel=stored.channel)
        raise InvalidOption("error.busy")

    async def catch_up(self, tournament_id: str) -> list[Change]:
        """Count every result the tournament's tables have left and it has not counted yet
        (after a restart, or a process that stopped between a match's end and its report)."""
        found = await self.store.hash(self.scope, inbox(tournament_id))
        readable = {}
        for where, text in found.items():
            place, result = parse_place(where), parse_result(text)
            if place is None or result is None:  # hand-edited or damaged: that table alone waits
                self._unreadable(tournament_id, where, text)
                continue
            readable[place] = (where, result)
        changes = []
        for (number, table), (where, result) in sorted(readable.items()):
            try:
                change = await self.report(tournament_id, number, table, result)
            except ValueError:  # no such table, or winners not seated at it: not this result
                self._unreadable(tournament_id, where, found[where])
                continue
            if change.before != change.after:
                changes.append(change)
        return changes

    def _unreadable(self, tournament_id: str, where: str, text: str) -> None:
        record = f"{inbox(tournament_id)} {where[:20]}"
        self.on_unreadable(self.scope, unreadable_result(record, f"{text[:20]!r}"))

    async def told(self, stored: Stored) -> None:
        """A round's news, told again: no longer due (unless the record moved on meanwhile)."""
        record = key(stored.tournament.id)
        await self.store.commit(Commit(self.scope, ops=(
            StoreOp(OpKind.HEQ, record, "v", str(stored.version)),
            StoreOp(OpKind.HSET, record, NEWS_DUE, ""))))  # fmt: skip

    async def _active(self, channel: str) -> Stored:
        stored = await active(self.store, self.scope, channel)
        if stored is None:
            raise NoTournament()
        return stored

    async def _commit(self, stored: Stored, new: Tournament, write: Write) -> bool:
        """Write the step; False when the record or a balance changed meanwhile."""
        commit = Commit(
            self.scope, request_id=self.request_id, result=write.result,
            start_balance=self.start_balance, ensure_accounts=write.accounts,
            expected_balances=write.expected, holds=write.holds, hold_key=hold_key(new.id),
            transfers=write.transfers, journal=Journal(write.reason, stored.channel),
            ops=(*rewrite(stored.version, new, stored.channel), *write.ops),
        )  # fmt: skip
        outcome = await self.store.commit(commit)
        if outcome.status in (CommitStatus.STALE, CommitStatus.BALANCES):
            return False
        if outcome.status is not CommitStatus.OK and outcome.status is not CommitStatus.DUPLICATE:
            raise InvalidOption("error.busy")
        return True
