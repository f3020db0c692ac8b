"""A round advances in the commit that ends its last table (SPEC 12): two tables ending at
once in two clients advance it once, and a process killed right after that commit leaves the
round advanced once, the prizes paid once and the ledger balanced."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from core.game.state import GameState
from core.game.tournament.values import Status
from core.service.features.tournaments import advance
from core.service.features.tournaments.command import OpenTable
from core.service.features.tournaments.records import load, pot_account
from core.service.model.commit import Scope
from core.service.model.membership import Membership
from core.service.model.ports import GameStore
from core.service.pipeline import table_ends
from core.service.pipeline.subcommands import parse
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager
from tests.integration.test_tournament_commands import Plain, say

FOUR = ("Ann", "Bob", "Cid", "Dan")


async def cup(store: RedisStore, rounds: int) -> str:
    """Four players paid in, round 1 paired as two tables of two."""
    lobby = Table(manager(store, clock=Clock()))
    await say(lobby, "Root", f"create Cup rounds={rounds} table=2 fee=10", admin=True)
    for name in FOUR:
        await say(lobby, name, "join")
    await say(lobby, "Root", "start", admin=True)
    stored = await load(store, SCOPE, (await store.hash(SCOPE, "tours"))["c1"])
    assert stored is not None
    return stored.tournament.id


async def opened(store: RedisStore, tournament: str, number: int) -> Table:
    table = Table(manager(store, clock=Clock()), channel=f"c1/r1t{number}")
    await table.manager.handle(table.ctx("Root"), OpenTable(tournament, 1, number))
    return table


@pytest.mark.parametrize("rounds", [1, 2])
async def test_the_last_two_tables_ending_at_once_advance_the_round_once(
    store: RedisStore, redis_url: str, monkeypatch: pytest.MonkeyPatch, rounds: int
) -> None:
    tournament = await cup(store, rounds)
    client = aioredis.from_url(redis_url, decode_responses=True)
    other = RedisStore(client)
    tables = [await opened(store, tournament, 1), await opened(other, tournament, 2)]
    both_read, reads = asyncio.Event(), []
    real = advance.table_end

    async def read_together(st: GameStore, scope: Scope, tour: str, state: GameState,
                            membership: Membership) -> advance.TableEnd | None:  # fmt: skip
        """Both tables read the tournament at the same version before either commits."""
        end = await real(st, scope, tour, state, membership)
        reads.append(end)
        if len(reads) == 2:
            both_read.set()
        await asyncio.wait_for(both_read.wait(), 5)
        return end

    monkeypatch.setattr(table_ends, "table_end", read_together)
    stop = parse("stop", Plain())  # type: ignore[arg-type]
    ended = await asyncio.gather(*(t.manager.handle(t.ctx("Root", admin=True), stop)
                                   for t in tables))  # fmt: skip
    assert len(reads) == 3  # the commit that lost the race planned again, on the other's result
    stored = await load(store, SCOPE, tournament)
    assert stored is not None
    final = stored.tournament
    assert all(table.result is not None for table in final.rounds[0].tables)
    told = [text for reply in ended for _, text in reply.elsewhere]
    if rounds == 2:
        assert len(final.rounds) == 2 and final.status is Status.RUNNING
        assert sum("— round 2:" in text for text in told) == 1
    else:
        assert final.status is Status.FINISHED
        assert sum("is over" in text for text in told) == 1
        pot = pot_account(tournament)
        assert (await store.balances(SCOPE, [pot]))[pot] == 0
    assert (await store.verify_ledger(SCOPE)).ok
    await client.aclose()


async def last_table_ended_by_a_killed_process(
    store: RedisStore, redis_url: str, tournament: str
) -> None:
    """Table 1 stopped here; table 2's end committed by a process SIGKILLed right after it."""
    first = await opened(store, tournament, 1)
    stop = parse("stop", Plain())  # type: ignore[arg-type]
    await first.manager.handle(first.ctx("Root", admin=True), stop)
    env = {**os.environ, "PYTHONPATH": str(Path.cwd())}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.integration.table_end_process", redis_url, tournament, "2",
        env=env)  # fmt: skip
    assert await asyncio.wait_for(process.wait(), 60) == -signal.SIGKILL


async def test_a_process_killed_right_after_the_last_tables_commit_leaves_one_advance(
    store: RedisStore, redis_url: str
) -> None:
    tournament = await cup(store, rounds=2)
    await last_table_ended_by_a_killed_process(store, redis_url, tournament)
    stored = await load(store, SCOPE, tournament)
    assert stored is not None and stored.news_due  # advanced, and nobody told yet
    assert len(stored.tournament.rounds) == 2
    restarted = Table(manager(store, clock=Clock()))
    shown = await say(restarted, "Ann", "standings")
    assert [text.split(":")[0] for _, text in shown.elsewhere] == [
        "**Cup** — standings after 1 round", "**Cup** — round 2"]
    assert [(call.round, call.table) for call in shown.tables] == [(2, 1), (2, 2)]
    again = await load(store, SCOPE, tournament)
    assert again is not None and len(again.tournament.rounds) == 2 and not again.news_due
    pot = pot_account(tournament)
    assert (await store.balances(SCOPE, [pot]))[pot] == 40
    assert (await store.verify_ledger(SCOPE)).ok


class Left:
    """A platform on which these members have left the server."""

    def __init__(self, *users: str) -> None:
        self.users = frozenset(users)

    async def left(self, scope: Scope, users: Sequence[str]) -> frozenset[str]:
        return self.users & set(users)


async def test_a_player_who_left_is_not_paired_again_and_the_channel_is_told(
    store: RedisStore,
) -> None:
    tournament = await cup(store, rounds=2)
    stop = parse("stop", Plain())  # type: ignore[arg-type]
    told: list[str] = []
    for number in (1, 2):
        table = await opened(store, tournament, number)
        table.manager.membership = Left("bob")
        ended = await table.manager.handle(table.ctx("Root", admin=True), stop)
        told += [text for _, text in ended.elsewhere]
    assert told[0] == "Bob has left the server and is out of **Cup**."
    assert told[2].startswith("**Cup** — round 2:")
    stored = await load(store, SCOPE, tournament)
    assert stored is not None
    now = stored.tournament
    assert now.out == (("bob", 1),)
    assert now.current is not None and sorted(now.current.players) == ["ann", "cid", "dan"]
    assert any(table.result and "bob" in table.seats for table in now.rounds[0].tables)
    assert (await store.verify_ledger(SCOPE)).ok


async def test_a_process_killed_right_after_the_final_commit_leaves_prizes_paid_once(
    store: RedisStore, redis_url: str
) -> None:
    tournament = await cup(store, rounds=1)
    await last_table_ended_by_a_killed_process(store, redis_url, tournament)
    stored = await load(store, SCOPE, tournament)
    assert stored is not None and stored.tournament.status is Status.FINISHED
    pot = pot_account(tournament)
    balances = await store.balances(SCOPE, [*(n.lower() for n in FOUR), pot])
    assert balances.pop(pot) == 0 and sum(balances.values()) == 4 * 100
    shown = await say(Table(manager(store, clock=Clock())), "Ann", "standings")
    assert [text.split(":")[0] for _, text in shown.elsewhere] == [
        "**Cup** — standings after 1 round", "🏆 **Cup** is over"]
    again = await say(Table(manager(store, clock=Clock())), "Ann", "standings")
    assert again.elsewhere == ()
    assert (await store.verify_ledger(SCOPE)).ok
