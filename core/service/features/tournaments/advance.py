"""A tournament table's end and its tournament's next step, written by one commit.

When a table's match ends, the game's own commit also carries the tournament record's version
check and its new state: the table's result and, when it was the round's last open table, the
next round's pairing or the end with the prizes paid out of the pot. Two tables ending at once
in two processes both check the same version, so one commit goes stale, plans again on the
record the other wrote, and sees its result: a round advances exactly once.

What follows the commit (opening the next round's threads, posting the standings) is delivered
once per key by the surface; the record keeps `nd` ("news due") set from the commit that
advanced it until the next table's result, so a process that stopped right after the commit
leaves the news to be told again on the channel's next `tournament` command.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.game.settlement import Transfer
from core.game.state import GameState
from core.game.tournament import progress
from core.game.tournament.values import Status
from core.service.features.tournaments.book import Change, won
from core.service.features.tournaments.chips import prize_transfers
from core.service.features.tournaments.records import ENDED, NEWS_DUE, key, load, rewrite
from core.service.features.tournaments.tables import TableLink, table_result
from core.service.model.commit import Journal, OpKind, Scope, StoreOp
from core.service.model.membership import Membership
from core.service.model.ports import GameStore


@dataclass(frozen=True, slots=True)
class TableEnd:
    """What a table's last commit writes of its tournament, and the step it makes."""

    change: Change
    ops: tuple[StoreOp, ...]
    transfers: tuple[Transfer, ...] = ()

    @property
    def journal(self) -> Journal:
        """The prizes are journaled as the tournament's, in its channel."""
        return Journal("tournament", self.change.channel)


async def table_end(store: GameStore, scope: Scope, tour: str, state: GameState,
                    membership: Membership) -> TableEnd | None:  # fmt: skip
    """The tournament's step for a table whose match is over; None if it changes nothing
    (a replay of a result already counted, or a tournament gone or no longer running).
    Before a next round is paired, its players are checked: one who left the server is
    paired in no later round."""
    link = TableLink.parse(tour)
    stored = await load(store, scope, link.tournament) if link else None
    if link is None or stored is None:
        return None
    old = stored.tournament
    try:
        new = progress.record(old, link.round, link.table, table_result(state))
    except ValueError:  # no such table in this round: nothing of the tournament to change
        return None
    if new == old:
        return None
    left: tuple[str, ...] = ()
    if len(new.rounds) > len(old.rounds) and new.current:  # paired again, without who left
        gone = await membership.left(scope, new.current.players)
        out = progress.withdraw(old, gone)
        left = tuple(p for p, _ in out.out[len(old.out):])
        new = progress.record(out, link.round, link.table, table_result(state)) if left else new
    change = Change(old, new, channel=stored.channel, left=left)
    told = "1" if change.advanced or change.finished else ""
    ops = (*rewrite(stored.version, new, stored.channel),
           StoreOp(OpKind.HSET, key(new.id), NEWS_DUE, told))  # fmt: skip
    if new.status is not Status.FINISHED:
        return TableEnd(change, ops)
    last = StoreOp(OpKind.HSET, ENDED, stored.channel, new.id)  # where its news is found
    return TableEnd(change, (*ops, last, *won(new)), prize_transfers(new))
