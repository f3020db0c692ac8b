"""Redis behind Sentinel: the master is found by name through redis-py's `Sentinel`.

REDIS_SENTINELS=host:port,host:port names the sentinels and REDIS_SENTINEL_MASTER the master
they watch. Every new connection asks a sentinel where the master is now; after a failover the
connections to the old master fail, redis-py retries the command, and the new connection goes to
the promoted replica. Until the sentinels have promoted one, commands fail as with any Redis out
of reach (docs/operate/scaling.md, "Redis Sentinel", says what an asynchronous failover may lose).
"""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool

from bot.redis_pool import PoolLimits

MASTER_TIMEOUT = 5.0  # connect and read timeout on the master, as for every other client
SENTINEL_TIMEOUT = 2.0  # a sentinel that does not answer within this is skipped for the next
Address = tuple[str, int]


@dataclass(frozen=True, slots=True)
class SentinelTarget:
    """Where to ask for the master, and the passwords of the master and of the sentinels."""

    sentinels: tuple[Address, ...]
    master: str
    password: str | None = None
    sentinel_password: str | None = None


def parse_sentinels(text: str) -> tuple[Address, ...]:
    """`10.0.0.1:26379,10.0.0.2:26379` as address pairs; ValueError naming what is wrong."""
    addresses = []
    for part in (piece.strip() for piece in text.split(",")):
        host, _, port = part.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{part!r} is not host:port; give e.g. 10.0.0.1:26379,10.0.0.2:26379")
        addresses.append((host.strip("[]"), int(port)))  # [::1]:26379 is an IPv6 sentinel
    return tuple(addresses)


class SentinelRedis(Redis):
    """The master's client; closing it closes the connections to the sentinels as well."""

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        pool = self.connection_pool
        await super().aclose(close_connection_pool)
        if isinstance(pool, SentinelConnectionPool):
            for sentinel in pool.sentinel_manager.sentinels:
                await sentinel.aclose()


class WaitingSentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """The master's pool, bounded and waiting for a free connection as the single node's is
    (bot/redis_pool.py): connections still go to wherever the sentinels say the master is."""


def sentinel_client(target: SentinelTarget, pool: PoolLimits | None = None) -> Redis:
    """A client that always talks to the current master of `target.master`, through a pool of
    `pool.size` connections that waits up to `pool.wait` seconds for one."""
    limits = pool or PoolLimits()
    sentinel_options = {
        "socket_timeout": SENTINEL_TIMEOUT,
        "socket_connect_timeout": SENTINEL_TIMEOUT,
        "password": target.sentinel_password,
        "decode_responses": True,
    }
    sentinel = Sentinel(  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
        list(target.sentinels), sentinel_kwargs=sentinel_options
    )
    client: Redis = sentinel.master_for(
        target.master,
        redis_class=SentinelRedis,
        connection_pool_class=WaitingSentinelPool,
        max_connections=limits.size,
        timeout=limits.wait,
        decode_responses=True,
        password=target.password,
        socket_timeout=MASTER_TIMEOUT,
        socket_connect_timeout=MASTER_TIMEOUT,
    )
    return client
