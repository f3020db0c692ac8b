"""Integration fixtures: a real Redis, `REDIS_URL` if set, else the embedded server the bot uses."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
import redis.asyncio as aioredis
from redis.asyncio import Redis
from redis.connection import parse_url

from bot.redis_server import EmbeddedRedis
from core.store.redis_store import RedisStore


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def redis_url(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    """`REDIS_URL` (on a database other than 0), else one embedded server for the session."""
    url = os.environ.get("REDIS_URL")
    if url:
        _refuse_database_zero(url)
        yield url
        return
    async with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


def _refuse_database_zero(url: str) -> None:
    """Every test flushes its database: never the default one a bot may be using."""
    if not parse_url(url).get("db"):
        pytest.exit(f"REDIS_URL={url} selects database 0; point it at a spare one (e.g. /15)")


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    """A fresh client on an empty database (FLUSHDB of the URL's database only)."""
    client = aioredis.from_url(redis_url, decode_responses=True)
    await client.flushdb()
    yield client
    await client.aclose()


@pytest.fixture
def store(redis: Redis) -> RedisStore:
    return RedisStore(redis)


@pytest.fixture
def configured(redis: Redis, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """`REDIS_URL` set for the `shutbox` command to the test's empty database."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    return redis_url
