"""A Redis that refuses (READONLY replica, OOM, a script error) gets its own private message.

The servers are real `redis-server` processes started here on free ports; Redis' own error
text goes to the log only, never into what a player reads.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis.asyncio import Redis

from core.service.api.commands import Daily, Solo
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.settings import StartOptions
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from core.text.i18n import t
from tests.scale.servers import free_port, redis_server

SCOPE = Scope("test", "guild")
REDIS_WORDS = ("READONLY", "OOM", "WRONGTYPE", "ERR", "script", "redis")


def ctx(request: str) -> Context:
    return Context(SCOPE, "c1", "ann", "Ann", request_id=request)


def private_only(text: str | None) -> str:
    assert text is not None
    assert not any(word in text for word in REDIS_WORDS), text
    return text


@pytest.fixture
async def replica(tmp_path: Path) -> AsyncIterator[Redis]:
    """A replica of a primary: it answers reads and refuses every write with READONLY."""
    primary_port, replica_port = free_port(), free_port()
    with (
        redis_server(tmp_path / "primary", primary_port),
        redis_server(
            tmp_path / "replica",
            replica_port,
            extra=["--replicaof", "127.0.0.1", str(primary_port)],
        ),  # fmt: skip
    ):
        client = aioredis.from_url(f"redis://127.0.0.1:{replica_port}/0", decode_responses=True)
        yield client
        await client.aclose()


@pytest.fixture
async def full(tmp_path: Path) -> AsyncIterator[Redis]:
    """A Redis over its memory limit under `noeviction`: every write is refused with OOM."""
    port = free_port()
    extra = ["--maxmemory", "1", "--maxmemory-policy", "noeviction"]
    with redis_server(tmp_path / "full", port, extra=extra):
        client = aioredis.from_url(f"redis://127.0.0.1:{port}/0", decode_responses=True)
        yield client
        await client.aclose()


async def test_a_read_only_replica_says_so_privately(
    replica: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """After a failover the bot may be pointed at a replica: a start says the store can only
    read, changes nothing, and Redis' READONLY text is one log line."""
    manager = GameManager(RedisStore(replica))
    with caplog.at_level(logging.WARNING):
        reply = await manager.handle(ctx("r1"), Solo(StartOptions()))
    assert private_only(reply.private) == t("en", "error.redis.readonly")
    assert reply.game is None and not reply.public
    assert await replica.dbsize() == 0
    logged = [r.getMessage() for r in caplog.records if r.name == "core.store.errors"]
    assert len(logged) == 1 and "READONLY" in logged[0] and not caplog.records[0].exc_info


async def test_a_full_redis_says_so_privately(full: Redis) -> None:
    """Out of memory: the daily claim says the store is full; no chips appear."""
    reply = await GameManager(RedisStore(full)).handle(ctx("d1"), Daily())
    assert private_only(reply.private) == t("en", "error.redis.full")
    assert await full.dbsize() == 0


async def test_a_script_error_says_the_store_refused(redis: Redis) -> None:
    """A key of the wrong type breaks the commit script: a private "refused", nothing written,
    and a second try after the repair works. (A balance of the wrong type is an unreadable
    record instead: tests/integration/test_unreadable_records.py.)"""
    await redis.set(f"{SCOPE.tag}:daily", "not a hash")
    manager = GameManager(RedisStore(redis))
    reply = await manager.handle(ctx("d1"), Daily())
    assert private_only(reply.private) == t("en", "error.redis.refused")
    assert await redis.get(f"{SCOPE.tag}:daily") == "not a hash"
    assert not await redis.exists(f"{SCOPE.tag}:bal")
    await redis.delete(f"{SCOPE.tag}:daily")
    assert "25" in private_only((await manager.handle(ctx("d2"), Daily())).private)
