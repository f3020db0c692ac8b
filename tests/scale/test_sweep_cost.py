"""What a sweep costs, counted on a Redis of its own: what is due, never every server known.

INFO commandstats counts the whole server, so these tests start their own `redis-server`
instead of sharing one with other test runs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import redis.asyncio as aioredis
from redis.asyncio import Redis

from core.service.api.commands import Start
from core.service.model.settings import StartOptions
from core.store.deadlines import DUE_KEY
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager
from tests.scale.servers import RedisProcess, free_port, redis_server

IDLE_SERVERS = 2000
NOW = int(Clock().now)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisProcess]:
    with redis_server(tmp_path_factory.mktemp("sweep"), free_port()) as process:
        yield process


@pytest.fixture
async def redis(server: RedisProcess) -> AsyncIterator[Redis]:
    client = aioredis.from_url(server.url, decode_responses=True)
    await client.flushall()
    yield client
    await client.aclose()


@pytest.fixture
def store(redis: Redis) -> RedisStore:
    return RedisStore(redis)


async def commands_sent(redis: Redis) -> int:
    """Commands the server ran so far (INFO commandstats), leaving out INFO itself."""
    stats = await redis.info("commandstats")
    return sum(int(row["calls"]) for name, row in stats.items() if name != "cmdstat_info")


async def idle_servers(redis: Redis, count: int, deadline: int) -> None:
    """`count` servers that each had a game with a deadline, as the commit script leaves them."""
    pipe = redis.pipeline(transaction=False)
    for index in range(count):
        member = f"idle:s{index}"
        pipe.sadd("stb:servers", member)
        pipe.zadd(f"stb:{{{member}}}:deadlines", {"c1": deadline})
        pipe.zadd(DUE_KEY, {member: deadline})
    await pipe.execute()


async def test_a_sweep_with_thousands_of_idle_servers_sends_a_handful_of_commands(
    redis: Redis, store: RedisStore
) -> None:
    """Nothing due on 2,000 known servers: the sweep costs the same few commands as on one."""
    await idle_servers(redis, IDLE_SERVERS, NOW + 600)
    sweeper = manager(store)
    before = await commands_sent(redis)
    assert await sweeper.sweep() == []
    assert await commands_sent(redis) - before <= 2


async def test_a_deadline_among_idle_servers_fires_on_the_first_sweep_after_it(
    redis: Redis, store: RedisStore
) -> None:
    """One lobby passes its ten minutes among 2,000 idle servers: the next sweep closes it, and
    its cost grows with that one server, not with the others."""
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    await idle_servers(redis, IDLE_SERVERS, int(clock.now) + 3600)
    clock.now += 599
    assert await table.manager.sweep() == []
    clock.now += 1  # the deadline itself
    before = await commands_sent(redis)
    [(scope, reply)] = await table.manager.sweep()
    assert scope == SCOPE and reply.game is not None and reply.game.over
    # the timeout's commit script counts with every call it makes inside: about 20 in all
    assert await commands_sent(redis) - before <= 40
    assert await redis.zscore(DUE_KEY, "test:guild") is None  # nothing left to wait for
