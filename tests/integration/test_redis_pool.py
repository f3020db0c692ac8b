"""The Redis pool under a flood: commands wait for a free connection instead of failing.

A pool of 4 connections serves hundreds of concurrent players' commands, board reads and
`/metrics` scrapes on a real Redis; every one of them answers. The same flood on redis-py's
default pool (which refuses at once when full) shows what the bot did before.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis.asyncio import Redis

from bot.health import HealthSources, serving
from bot.redis_pool import PoolLimits
from bot.redis_server import connect
from bot.telemetry import Telemetry
from core.service.api.commands import Balance, Command, Leaderboard
from core.service.model.context import Context
from core.service.model.views import Reply
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock
from tests.integration.test_health import fetch

POOL = PoolLimits(size=4, wait=10.0)
FLOOD = 300  # concurrent operations: 75 times the pool
UNREACHABLE = "The game store can’t be reached right now."


@pytest.fixture
async def pooled(redis: Redis, redis_url: str, tmp_path: Path) -> AsyncIterator[Redis]:
    client, _ = await connect(redis_url, tmp_path, cluster=False, pool=POOL)
    assert isinstance(client, Redis)
    yield client
    await client.aclose()


async def flood(client: Redis) -> list[Reply]:
    manager = GameManager(RedisStore(client), clock=Clock())

    def ctx(n: int) -> Context:
        return Context(SCOPE, "c1", f"u{n}", f"U{n}", request_id=f"flood-{n}")

    commands: list[Command] = [Balance() if n % 2 else Leaderboard("chips") for n in range(FLOOD)]
    return await asyncio.gather(
        *(manager.handle(ctx(n), command) for n, command in enumerate(commands))
    )


async def test_many_more_commands_than_connections_all_answer(pooled: Redis) -> None:
    """300 concurrent balance and leaderboard commands on 4 connections: none fails."""
    replies = await flood(pooled)
    failed = [r for r in replies if r.private and r.private.startswith(UNREACHABLE)]
    assert failed == []
    assert sum(1 for r in replies if r.private == "You have 100 chips.") == FLOOD // 2
    assert pooled.connection_pool.max_connections == POOL.size


async def test_the_default_pool_fails_the_same_flood(redis_url: str) -> None:
    """The control: a pool that refuses when full turns the flood into errors for players."""
    client = aioredis.from_url(redis_url, decode_responses=True, max_connections=POOL.size)
    try:
        replies = await flood(client)
    finally:
        await client.aclose()
    assert any(r.private and r.private.startswith(UNREACHABLE) for r in replies)


async def test_a_flood_of_scrapes_leaves_players_commands_working(pooled: Redis) -> None:
    """400 concurrent `/metrics` and `/readyz` beside 60 players' balance commands: every
    scrape answers 200 and every command its balance."""
    store = RedisStore(pooled)
    sources = HealthSources(pooled, Telemetry(), store=store)
    manager = GameManager(store, clock=Clock())
    async with serving(sources, "127.0.0.1", 0) as port:
        scrapes = [fetch(port, "/metrics" if n % 2 else "/readyz") for n in range(400)]
        commands = [
            manager.handle(Context(SCOPE, "c1", f"p{n}", f"P{n}", request_id=f"b{n}"), Balance())
            for n in range(60)
        ]
        results = await asyncio.gather(*scrapes, *commands)
    statuses = [result[0] for result in results[:400]]  # type: ignore[index]
    assert statuses == [200] * 400
    replies = results[400:]
    assert all(r.private == "You have 100 chips." for r in replies)  # type: ignore[union-attr]
