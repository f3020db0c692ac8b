"""Scale fixtures: the same real Redis the integration tests use (for two bot processes), and
one real three-master Redis Cluster for the whole run (each test gets it emptied)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator

import pytest
from redis.asyncio.cluster import RedisCluster

from bot.redis_server import connect
from tests.integration.conftest import redis, redis_url, store
from tests.scale.servers import RedisProcess, redis_cluster

__all__ = ["client", "cluster", "redis", "redis_url", "store"]


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[RedisProcess]]:
    """Started once: a cluster takes seconds to form, and every test empties it first."""
    started = time.perf_counter()
    with redis_cluster(tmp_path_factory.mktemp("cluster")) as nodes:
        print(f"\ncluster of {len(nodes)} masters ready in {time.perf_counter() - started:.2f} s")
        yield nodes


@pytest.fixture
async def client(cluster: list[RedisProcess]) -> AsyncIterator[RedisCluster]:
    """A RedisCluster client made the way the bot makes it (REDIS_CLUSTER=true), on empty nodes."""
    for node in cluster:
        with node.client() as direct:
            direct.flushall()
    made, embedded = await connect(cluster[0].url, cluster=True)
    assert isinstance(made, RedisCluster) and embedded is None
    yield made
    await made.aclose()
