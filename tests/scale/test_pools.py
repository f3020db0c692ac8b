"""REDIS_POOL_SIZE and REDIS_POOL_TIMEOUT hold for a Redis Cluster and for Redis behind Sentinel
as for a single node: a pool that size, and a flood of commands far larger waits its turn and
is answered, instead of failing at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from redis.asyncio import BlockingConnectionPool, Redis, RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.redis_pool import PoolLimits
from bot.redis_server import connect
from bot.sentinel import SentinelTarget
from tests.scale.sentinels import MASTER_NAME, sentinel_setup
from tests.scale.servers import RedisProcess

POOL = PoolLimits(size=3, wait=10.0)
FLOOD = 200  # concurrent commands: far more than the pool


async def flooded(client: Redis | RedisCluster) -> list[int]:
    """FLOOD INCRs at once, each on a key of its own (spread over a cluster's nodes)."""
    return list(await asyncio.gather(*(client.incr(f"pool:{n}") for n in range(FLOOD))))


async def test_a_cluster_client_keeps_the_pool_size_and_waits_its_turn(
    cluster: list[RedisProcess],
) -> None:
    for node in cluster:
        with node.client() as direct:
            direct.flushall()
    client, _ = await connect(cluster[0].url, cluster=True, pool=POOL)
    assert isinstance(client, RedisCluster)
    try:
        answers = await flooded(client)
        sizes = {node.max_connections for node in client.get_nodes()}
        opened = max(len(node._connections) for node in client.get_nodes())
    finally:
        await client.aclose()
    assert answers == [1] * FLOOD
    assert sizes == {POOL.size} and opened <= POOL.size


async def test_a_sentinel_client_keeps_the_pool_size_and_waits_its_turn(tmp_path: Path) -> None:
    with sentinel_setup(tmp_path) as setup:
        target = SentinelTarget((("127.0.0.1", setup.sentinel.port),), MASTER_NAME)
        client, _ = await connect(None, tmp_path, sentinel=target, pool=POOL)
        assert isinstance(client, Redis)
        try:
            answers = await flooded(client)
            pool = client.connection_pool
        finally:
            await client.aclose()
    assert answers == [1] * FLOOD
    assert isinstance(pool, BlockingConnectionPool)
    assert (pool.max_connections, pool.timeout) == (POOL.size, POOL.wait)


async def test_past_the_wait_a_cluster_command_fails_as_a_full_pool_does(
    cluster: list[RedisProcess],
) -> None:
    client, _ = await connect(cluster[0].url, cluster=True, pool=PoolLimits(size=1, wait=0.05))
    assert isinstance(client, RedisCluster)
    try:
        blocking = asyncio.create_task(client.blpop(["pool:never"], timeout=2))
        await asyncio.sleep(0.2)  # it holds the one turn
        with pytest.raises(RedisConnectionError, match="No connection available"):
            await client.ping()
        await blocking
    finally:
        await client.aclose()
