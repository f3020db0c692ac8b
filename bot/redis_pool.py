"""The single-node Redis client's connection pool: bounded, and waiting when it is full.

redis-py's default asyncio pool refuses a command at once when all its connections are busy,
so a burst of leaderboards or health scrapes failed players' commands with "can't be reached"
while Redis was fine. This pool waits, in arrival order, up to a bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis


@dataclass(frozen=True, slots=True)
class PoolLimits:
    """How many connections one client opens, and how long a command waits for a free one."""

    size: int = 200
    wait: float = 10.0


def pooled_client(url: str, pool: PoolLimits, **options: Any) -> Redis:
    """A client whose pool waits for a free connection (in arrival order) once `pool.size` are
    in use, and fails only after `pool.wait` seconds. redis-py's default pool fails at once
    when full: a flood of scrapes or board reads would then fail players' commands."""
    connections = BlockingConnectionPool.from_url(
        url, max_connections=pool.size, timeout=pool.wait, **options
    )
    return Redis.from_pool(connections)
