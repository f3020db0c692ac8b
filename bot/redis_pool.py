"""Every Redis client's connection pool: bounded, and waiting when it is full.

redis-py's default asyncio pool refuses a command at once when all its connections are busy,
so a burst of leaderboards or health scrapes failed players' commands with "can't be reached"
while Redis was fine. These pools wait, up to a bound: the single node's and Sentinel's master
pool (bot/sentinel.py) as redis-py's `BlockingConnectionPool`; the cluster client, which has
no waiting pool, holds at most `size` commands in flight and makes the rest wait for a turn.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis, RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError


@dataclass(frozen=True, slots=True)
class PoolLimits:
    """How many connections one client opens, and how long a command waits for a free one."""

    size: int = 200
    wait: float = 10.0


DEFAULT = PoolLimits()


def pooled_client(url: str, pool: PoolLimits, **options: Any) -> Redis:
    """A client whose pool waits for a free connection (in arrival order) once `pool.size` are
    in use, and fails only after `pool.wait` seconds. redis-py's default pool fails at once
    when full: a flood of scrapes or board reads would then fail players' commands."""
    connections = BlockingConnectionPool.from_url(
        url, max_connections=pool.size, timeout=pool.wait, **options
    )
    return Redis.from_pool(connections)


class WaitingCluster(RedisCluster):
    """A cluster client with at most `max_connections` commands in flight (so no node's pool
    of that size is ever full); a command past them waits up to `pool_wait` seconds, then fails
    as a full single-node pool does."""

    def __init__(self, *args: Any, pool_wait: float = DEFAULT.wait, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._turns = asyncio.Semaphore(int(kwargs.get("max_connections", DEFAULT.size)))
        self._pool_wait = pool_wait

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        try:
            async with asyncio.timeout(self._pool_wait):
                await self._turns.acquire()
        except TimeoutError:
            raise RedisConnectionError("No connection available.") from None
        try:
            return await super().execute_command(*args, **kwargs)
        finally:
            self._turns.release()


def pooled_cluster(url: str, pool: PoolLimits, **options: Any) -> RedisCluster:
    """A cluster client whose nodes' pools hold `pool.size` connections, waiting for a turn."""
    client: RedisCluster = WaitingCluster.from_url(
        url, max_connections=pool.size, pool_wait=pool.wait, **options
    )
    return client
