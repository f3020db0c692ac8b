"""Figures Redis reports about itself (INFO), for the gauges `/metrics` refreshes."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from redis.asyncio.cluster import RedisCluster

from bot.metrics import Metrics
from core.store.redis_store import RedisClient

INFO_TIMEOUT = 2.0

log = logging.getLogger("shutbox.health")


async def used_memory(redis: RedisClient) -> int:
    """INFO used_memory in bytes; on a cluster, the sum over its masters."""
    if isinstance(redis, RedisCluster):
        found: Any = await redis.info("memory", target_nodes=RedisCluster.PRIMARIES)
    else:
        found = await redis.info("memory")
    nodes = [found] if "used_memory" in found else list(found.values())
    return sum(int(node["used_memory"]) for node in nodes)


async def refresh_redis_memory(redis: RedisClient, metrics: Metrics) -> None:
    """Set `shutbox_redis_used_memory_bytes`; a Redis that does not answer keeps the last value."""
    try:
        async with asyncio.timeout(INFO_TIMEOUT):
            metrics.redis_memory.set(await used_memory(redis))
    except Exception:  # a scrape must still answer; redis_up says Redis is gone
        log.debug("could not read Redis' memory use", exc_info=True)
