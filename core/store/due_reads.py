"""The store's side of the due index (core/store/deadlines.py): which servers have a deadline due.

Mixed into `RedisStore`. A commit that brings a server's first deadline forward tells the index;
a sweep reads only the servers due, and moves each entry on to its next deadline.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from core.service.model import keys
from core.service.model.commit import Scope
from core.store.commit_wire import scope_of, server_key, server_member
from core.store.deadlines import DeadlineIndex
from core.store.errors import StoreUnavailable, reachable

REINDEX_CHUNK = 1000  # servers read per round trip when a process rebuilds the due index
SERVERS_KEY = keys.SERVERS  # global, so in another slot than any server: never in the script


class DueServers:
    """Mixed into `RedisStore`, which sets these attributes and defines `servers`."""

    _redis: Any
    deadlines: DeadlineIndex
    # Servers whose earliest deadline moved forward but the index was not told (Redis went
    # away right after the commit): told on the next sweep.
    _unindexed: set[Scope]

    async def servers(self) -> list[Scope]:
        raise NotImplementedError

    async def _index(self, scope: Scope, earliest: int | None) -> None:
        """Tell the due index that `scope`'s earliest deadline came forward (None: look it up).

        The commit itself is done: a Redis that fails now only defers this to the next sweep.
        """
        try:
            if earliest is None:
                earliest = await self.earliest_deadline(scope)
            if earliest is not None:
                await self.deadlines.brought_forward(server_member(scope), earliest)
        except (RedisConnectionError, RedisTimeoutError, StoreUnavailable):
            self._unindexed.add(scope)
        else:
            self._unindexed.discard(scope)

    async def due_servers(self, now: int) -> list[Scope]:
        """Servers with a deadline at or before `now`: read from the index, not server by server."""
        for scope in sorted(self._unindexed, key=lambda s: s.tag):
            await self._index(scope, None)
        with reachable():
            members = await self.deadlines.due(now)
        return [scope_of(member) for member in members]

    async def earliest_deadline(self, scope: Scope) -> int | None:
        """The server's first deadline (unix seconds), if it has one."""
        with reachable():
            key = server_key(scope, keys.DEADLINES)
            first: Any = await self._redis.zrange(key, 0, 0, withscores=True)
        return int(first[0][1]) if first else None

    async def swept(self, scope: Scope, epoch: str) -> None:
        """Move the server's index entry on to its next deadline (or drop it) after a sweep.

        `epoch` was read (`DeadlineIndex.epoch`) before the server's deadlines were: a commit
        since then changed it, and its own index write stands.
        """
        earliest = await self.earliest_deadline(scope)
        with reachable():
            await self.deadlines.settle(server_member(scope), epoch, earliest)

    async def due_epoch(self, scope: Scope) -> str:
        with reachable():
            return await self.deadlines.epoch(server_member(scope))

    async def oldest_deadlines(self, platforms: Collection[str] = ()) -> list[int]:
        """The earliest pending deadline of each server (of `platforms`, else of all) that has
        one, in unix seconds."""
        scopes = [s for s in await self.servers() if not platforms or s.platform in platforms]
        if not scopes:
            return []
        pipe = self._redis.pipeline(transaction=False)  # one round trip per node
        for scope in scopes:
            pipe.zrange(server_key(scope, keys.DEADLINES), 0, 0, withscores=True)
        with reachable():
            rows: list[Any] = await pipe.execute()
        return [int(row[0][1]) for row in rows if row]

    async def reindex_deadlines(self, platform: str | None = None) -> int:
        """Enter every known server (of `platform`) in the due index again; how many had a
        deadline. O(servers), so only when a process starts (see `DeadlineIndex.reindex`)."""
        found = 0
        with reachable():
            async for chunk in self._known_servers(platform):
                found += await self.deadlines.reindex(chunk)
        return found

    async def _known_servers(self, platform: str | None) -> AsyncIterator[list[str]]:
        batch: list[str] = []
        async for member in self._redis.sscan_iter(SERVERS_KEY, count=REINDEX_CHUNK):
            if platform is None or str(member).startswith(f"{platform}:"):
                batch.append(str(member))
            if len(batch) >= REINDEX_CHUNK:
                yield batch
                batch = []
        if batch:
            yield batch
