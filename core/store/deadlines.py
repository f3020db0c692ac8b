"""Which servers have a deadline due: one sorted set, so a sweep costs what is due, not all servers.

Each server keeps its channels' deadlines in its own sorted set (`<tag>:deadlines`), written by
the commit script in the server's slot. This index holds, per server, a time at or before that
server's earliest deadline, so a sweep reads only the servers due now. On a Redis Cluster the
index lives in its own slot (`stb:{due}`), so it is written beside the commit, never inside it:

- A commit that brings a server's earliest deadline forward (the script reports it) bumps the
  server's epoch, then lowers the server's time in the index (ZADD LT), in that order.
- A sweep, done with a server, reads the epoch, then the server's earliest deadline, and writes
  that (or removes the server) only if the epoch is unchanged (one script on the index's slot).

So a commit racing a sweep is never lost: either the sweep read the deadline the commit wrote, or
the commit's epoch bump voids the sweep's write, or the commit's ZADD lands after it. An entry
may be early (the sweep then finds nothing due and moves it on), never late.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from core.service.model import keys
from core.service.model.commit import Scope

DUE_KEY = keys.DUE  # server (`platform:id`) -> a time at or before its earliest deadline
EPOCH_KEY = keys.DUE_EPOCH  # server -> how often a commit brought its deadline forward
# Only if no commit touched the server since the sweep read its epoch: move it on or drop it.
SETTLE_LUA = (
    "if (redis.call('HGET', KEYS[2], ARGV[1]) or '') ~= ARGV[2] then return 0 end "
    "if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) "
    "else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end return 1"
)
DUE_PAGE = 500  # due servers read per command


class DeadlineIndex:
    """The servers whose earliest deadline has come, for every process to sweep."""

    def __init__(self, redis: Redis | RedisCluster) -> None:
        self._redis = redis
        self._settle = redis.register_script(SETTLE_LUA)

    async def brought_forward(self, server: str, earliest: int) -> None:
        """A commit made `earliest` the server's first deadline: make sure a sweep finds it."""
        pipe = self._redis.pipeline(transaction=True)  # both keys share the index's slot
        pipe.hincrby(EPOCH_KEY, server, 1)  # first: voids the write of a sweep that read before
        pipe.zadd(DUE_KEY, {server: earliest}, lt=True)
        await pipe.execute()

    async def reindex(self, servers: list[str]) -> int:
        """Enter each server at its earliest deadline again; how many had one.

        For a process starting up: one that died between a commit and its index write left
        that server's deadline out of the index (see the module's docstring for the order).
        """
        reads = self._redis.pipeline(transaction=False)
        for server in servers:
            reads.zrange(f"{_scope_of(server).tag}:deadlines", 0, 0, withscores=True)
        firsts = await reads.execute()
        writes = self._redis.pipeline(transaction=False)  # in order: epoch, then entry
        found = 0
        for server, first in zip(servers, firsts, strict=True):
            if first:
                writes.hincrby(EPOCH_KEY, server, 1)
                writes.zadd(DUE_KEY, {server: int(first[0][1])}, lt=True)
                found += 1
        if found:
            await writes.execute()
        return found

    async def due(self, now: int) -> list[str]:
        """Servers (`platform:id`) with a deadline at or before `now`, earliest first.

        All of them, page by page: servers another process owns (its shards, its platform) may
        stay due here, and must not hide this process's own behind them.
        """
        servers: list[str] = []
        while True:
            found: Any = await self._redis.zrangebyscore(
                DUE_KEY, "-inf", now, start=len(servers), num=DUE_PAGE
            )
            servers += [str(server) for server in found]
            if len(found) < DUE_PAGE:
                return servers

    async def epoch(self, server: str) -> str:
        """Read before the server's deadlines: `settle` only writes if it did not change."""
        found: Any = await self._redis.hget(EPOCH_KEY, server)
        return "" if found is None else str(found)

    async def settle(self, server: str, epoch: str, earliest: int | None) -> bool:
        """After a sweep: the server's next deadline, or no entry; False if a commit came first."""
        keys = [DUE_KEY, EPOCH_KEY]
        args = [server, epoch, "" if earliest is None else str(earliest)]
        done: Any = await self._settle(keys=keys, args=args)
        return bool(done)


def _scope_of(server: str) -> Scope:
    return Scope(*server.split(":", 1))
