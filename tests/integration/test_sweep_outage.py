"""The deadline sweep while Redis is away: one warning when it goes, one info when it is back."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.redis_server import client_options
from bot.runtime import sweeping
from core.service.model.commit import Scope
from core.service.model.views import Reply
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.scale.servers import free_port, redis_server


class CountingManager(GameManager):
    """Counts the sweeps, so the test can wait for some to fail without watching a clock."""

    def __init__(self, store: RedisStore) -> None:
        super().__init__(store)
        self.sweeps = 0
        self.swept = asyncio.Condition()

    async def sweep(
        self, platform: str | None = None, owns: Callable[[Scope], bool] | None = None
    ) -> list[tuple[Scope, Reply]]:
        try:
            return await super().sweep(platform, owns)
        finally:
            async with self.swept:
                self.sweeps += 1
                self.swept.notify_all()

    async def sweeps_pass(self, count: int) -> None:
        target = self.sweeps + count
        async with self.swept:
            await self.swept.wait_for(lambda: self.sweeps >= target)


async def nothing(scope: Scope, reply: Reply) -> None:
    """No deadlines are due in this test."""


async def test_an_outage_is_logged_once_and_the_return_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis is killed under a running sweep and started again on the same port: a warning,
    then an info line, no traceback, however many sweeps failed in between."""
    port = free_port()
    client = aioredis.from_url(f"redis://127.0.0.1:{port}/0", **client_options())
    manager = CountingManager(RedisStore(client))
    with caplog.at_level(logging.INFO, logger="shutbox"):
        async with sweeping(manager, "test", nothing, every=0.02):
            with redis_server(tmp_path / "first", port):
                await asyncio.wait_for(manager.sweeps_pass(3), 60)
            await asyncio.wait_for(manager.sweeps_pass(10), 60)  # ten sweeps without a Redis
            with redis_server(tmp_path / "second", port):
                await client.connection_pool.disconnect()
                await asyncio.wait_for(manager.sweeps_pass(3), 60)
    await client.aclose()
    logged = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "shutbox"]
    assert [level for level, _ in logged] == ["WARNING", "INFO"]
    assert logged[0][1].startswith("deadline sweep paused: the game store can't be reached")
    assert logged[1][1] == "deadline sweep resumed: the game store answers again"
    assert not [r for r in caplog.records if r.exc_info]


class ReindexCounted(RedisStore):
    """Counts the re-index attempts (an event after the third) and those that succeeded."""

    def __init__(self, client: aioredis.Redis) -> None:
        super().__init__(client)
        self.attempts = self.reindexed = 0
        self.tried_thrice = asyncio.Event()

    async def reindex_deadlines(self, platform: str) -> int:
        self.attempts += 1
        if self.attempts >= 3:
            self.tried_thrice.set()
        found = await super().reindex_deadlines(platform)
        self.reindexed += 1
        return found


async def test_the_start_up_reindex_is_retried_until_redis_answers(tmp_path: Path) -> None:
    """The sweep starts while Redis is away: the deadlines are re-indexed once it is back."""
    port = free_port()
    client = aioredis.from_url(f"redis://127.0.0.1:{port}/0", **client_options())
    store = ReindexCounted(client)
    manager = CountingManager(store)
    async with sweeping(manager, "test", nothing, every=0.02):
        await asyncio.wait_for(store.tried_thrice.wait(), 60)  # no Redis yet
        assert store.reindexed == 0 and manager.sweeps == 0
        with redis_server(tmp_path / "redis", port):
            await asyncio.wait_for(manager.sweeps_pass(3), 60)
            assert store.reindexed == 1
    await client.aclose()
