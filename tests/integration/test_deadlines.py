"""The due index: each server at its earliest deadline, kept right through races and retries."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

import core.store.deadlines
from bot.runtime import sweeping
from core.service.api.commands import Start
from core.service.model.commit import Commit, Scope
from core.service.model.context import Context
from core.service.model.settings import StartOptions
from core.service.model.views import Reply
from core.store.deadlines import DUE_KEY
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import Clock, Table, manager


def game(scope: Scope, channel: str, version: int, deadline: int | None) -> Commit:
    expected = None if version == 1 else version - 1
    return Commit(scope, channel, expected, f"record-{version}", version, deadline=deadline)


async def test_a_commit_that_brings_a_deadline_forward_is_indexed(store: RedisStore) -> None:
    """The index holds each server at its earliest deadline; later deadlines do not move it."""
    scope = Scope("test", "g1")
    await store.commit(game(scope, "c1", 1, 500))
    await store.commit(game(scope, "c2", 1, 900))
    assert await store.due_servers(499) == []
    assert await store.due_servers(500) == [scope]
    await store.commit(game(scope, "c2", 2, 300))
    assert await store.due_servers(300) == [scope]
    await store.commit(game(scope, "c2", 3, 250))  # the first deadline's own game, earlier
    assert await store.due_servers(250) == [scope]
    await store.commit(game(scope, "c2", 4, 1000))  # later: the index may wake early, never late
    assert await store.due_servers(249) == []


async def test_a_commit_during_a_sweep_is_not_lost(store: RedisStore) -> None:
    """The sweep read the server's deadlines, then a commit added one: the sweep's write-back
    is void, so the new deadline stays in the index."""
    scope = Scope("test", "g1")
    await store.commit(game(scope, "c1", 1, 100))
    await store.commit(game(scope, "c1", 2, None))  # that game ended: nothing is due now
    epoch = await store.due_epoch(scope)
    await store.commit(game(scope, "c2", 1, 700))  # lands between the sweep's read and write
    await store.swept(scope, epoch)
    assert await store.due_servers(700) == [scope]


async def test_a_sweep_drops_a_server_with_nothing_left_to_wait_for(store: RedisStore) -> None:
    """A server whose games ended leaves the index after one sweep."""
    scope = Scope("test", "g1")
    await store.commit(game(scope, "c1", 1, 100))
    await store.commit(game(scope, "c1", 2, None))
    assert await store.due_servers(100) == [scope]
    await store.swept(scope, await store.due_epoch(scope))
    assert await store.due_servers(10**9) == []


async def test_a_repeated_commit_tells_the_index_again(redis: Redis, store: RedisStore) -> None:
    """A retried commit (its first reply lost) finds its first run and still indexes the server,
    which the first run may not have lived to do."""
    scope = Scope("test", "g1")
    first = Commit(scope, "c1", None, "record-1", 1, request_id="r1", deadline=400)
    await store.commit(first)
    await redis.delete(DUE_KEY)  # as if the process died between the commit and the index
    await store.commit(first)
    assert await store.due_servers(400) == [scope]


async def test_a_sweep_leaves_servers_it_does_not_own(store: RedisStore) -> None:
    """A process running some Discord shards sweeps only their guilds; the rest stay due."""
    clock = Clock()
    ours, theirs = Scope("discord", "1"), Scope("discord", "2")
    lobbies = [Table(manager(store, clock=clock)) for _ in range(2)]
    for table, scope in zip(lobbies, (ours, theirs), strict=True):
        await table.manager.handle(Context(scope, "c1", "ann", "Ann"), Start(StartOptions()))
    clock.now += 601
    swept = await lobbies[0].manager.sweep("discord", owns=lambda scope: scope == ours)
    assert [scope for scope, _ in swept] == [ours]
    assert await store.due_servers(int(clock.now)) == [theirs]


async def test_servers_of_other_processes_never_hide_this_ones(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More servers due for another shard than one read returns: this process's own server,
    due after all of them, is still swept."""
    monkeypatch.setattr(core.store.deadlines, "DUE_PAGE", 2)
    others = [Scope("discord", f"other{index}") for index in range(5)]
    for scope in others:
        await store.commit(game(scope, "c1", 1, 100))
    mine = Scope("discord", "mine")
    await store.commit(game(mine, "c1", 1, 200))
    assert await store.due_servers(200) == [*others, mine]


async def test_a_starting_process_enters_every_known_deadline_again(
    redis: Redis, store: RedisStore
) -> None:
    """A process that died between a commit and its index write left a deadline out of the
    index; the next process to start its sweep puts it back (its own platform only)."""
    ours, theirs, idle = Scope("test", "g1"), Scope("other", "g2"), Scope("test", "g3")
    await store.commit(game(ours, "c1", 1, 300))
    await store.commit(game(theirs, "c1", 1, 400))
    await store.commit(game(idle, "c1", 1, None))
    await redis.delete(DUE_KEY)
    assert await store.reindex_deadlines("test") == 1
    assert await store.due_servers(10**9) == [ours]


async def test_the_runtime_sweep_finds_a_deadline_the_index_lost(
    redis: Redis, store: RedisStore
) -> None:
    """`shutbox discord/slack` sweeping from start-up: a passed deadline missing from the index
    (its process died before writing it) is still applied and shown."""
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    await redis.delete(DUE_KEY)
    clock.now += 600
    shown: asyncio.Queue[Reply] = asyncio.Queue()

    async def show(scope: Scope, reply: Reply) -> None:
        await shown.put(reply)

    async with sweeping(table.manager, "test", show, every=0.05):
        reply = await asyncio.wait_for(shown.get(), timeout=10)
    assert reply.game is not None and reply.game.over
