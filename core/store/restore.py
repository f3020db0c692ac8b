"""Loading a backup's groups into Redis: each group written in one MULTI (one hash slot).

A group's own keys are deleted in the same MULTI before they are written, so a group lands whole
or not at all, and never merges into what was there. Afterwards every restored server is in the
index of known servers and the due index again, so its deadlines fire (a bot reads the due index,
not each server).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from itertools import islice
from typing import Any

from core.store.backup import IN_FLIGHT, Group, StoredKey
from core.store.due_reads import SERVERS_KEY
from core.store.ledger import RedisClient
from core.store.redis_store import RedisStore


async def load(
    redis: RedisClient, groups: Iterable[Group], present: dict[str, set[str]]
) -> tuple[set[str], int]:
    """Write every group (several at once, each in its own MULTI), replacing the `present` keys
    of its tag; then delete the tags of `present` the groups did not hold, and index the
    servers. Returns the servers and the number of keys written."""
    servers: set[str] = set()
    keys = 0
    stream = iter(groups)
    while batch := list(islice(stream, IN_FLIGHT)):
        await asyncio.gather(*(write_group(redis, g, present.pop(g.tag, ())) for g in batch))
        servers.update(group.tag for group in batch if group.is_server)
        keys += sum(len(group.keys) for group in batch)
    for leftover in present.values():
        await delete_group(redis, leftover)
    await index_servers(redis, servers)
    return servers, keys


async def write_group(redis: RedisClient, group: Group, existing: Iterable[str] = ()) -> None:
    """Replace `existing` keys of the group's tag, and its own, by the group's keys."""
    pipe: Any = redis.pipeline(transaction=True)
    doomed = {*existing, *(stored.key for stored in group.keys)}
    if doomed:
        pipe.delete(*sorted(doomed))
    for stored in group.keys:
        _write(pipe, stored)
        if stored.ttl_ms is not None:
            pipe.pexpire(stored.key, stored.ttl_ms)
    await pipe.execute()


async def delete_group(redis: RedisClient, keys: Iterable[str]) -> None:
    """Delete the keys of one tag (a server the backup does not hold, under --replace)."""
    if doomed := sorted(keys):
        await redis.delete(*doomed)


async def index_servers(redis: RedisClient, servers: Iterable[str]) -> None:
    """Enter restored servers in the set of known servers, then rebuild the due index."""
    members = sorted(servers)
    for start in range(0, len(members), 1000):
        await redis.sadd(SERVERS_KEY, *members[start : start + 1000])
    await RedisStore(redis).reindex_deadlines()


def _write(pipe: Any, stored: StoredKey) -> None:
    key, value = stored.key, stored.value
    if stored.kind == "string":
        pipe.set(key, value)
    elif stored.kind == "hash":
        pipe.hset(key, mapping=value)
    elif stored.kind == "set":
        pipe.sadd(key, *value)
    elif stored.kind == "list":
        pipe.rpush(key, *value)
    elif stored.kind == "zset":
        # The scores as Redis wrote them: no round trip through a float
        pipe.execute_command("ZADD", key, *(part for member, score in value
                                            for part in (score, member)))  # fmt: skip
    else:
        _write_stream(pipe, key, value)


def _write_stream(pipe: Any, key: str, value: dict[str, Any]) -> None:
    """The entries with their ids, then the last id the stream ever gave (it may be past the
    last entry kept), so new entries get later ids than any before the backup."""
    last, entries = value["last"], value["entries"]
    for entry_id, fields in entries:
        pipe.execute_command("XADD", key, entry_id, *fields)
    if not entries:  # a stream emptied by trimming: created, trimmed to nothing at once
        pipe.execute_command("XADD", key, "MAXLEN", "0", last if last != "0-0" else "0-1",
                             "_", "_")  # fmt: skip
    pipe.execute_command("XSETID", key, last if last != "0-0" else "0-1")
