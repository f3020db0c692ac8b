"""Loading a backup's groups into Redis, all or nothing.

The file was checked whole first (core/store/backup_file.py: every line, every value). Then:

1. Staging: each group's keys are written under staged names (`stb-restore:` + the key, in the
   key's own hash slot), one MULTI per group. Nothing the bot reads changes. A step that fails
   here removes every staged key, and Redis is as it was.
2. Into place: a marker (`stb:restoring`) is set, then each group's staged keys are renamed to
   their names in one MULTI (its `present` keys deleted in the same step, under --replace) and
   given their times to live; tags the file does not hold are deleted, the servers indexed (with
   their deadlines and their open tournaments' start times), and the marker removed. A rename
   cannot be refused for memory, so only a Redis that goes away can stop this step; the marker
   then stays, `ledger verify` fails on it and a restore with --replace finishes the job.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from core.store.backup import IN_FLIGHT, SCAN_COUNT, Group, StoredKey, hash_tag
from core.store.due_reads import SERVERS_KEY
from core.store.ledger import RedisClient
from core.store.redis_store import RedisStore
from core.store.restore_starts import index_tournament_starts

STAGING = "stb-restore:"
RESTORING_KEY = "stb:restoring"  # set while staged keys go into place: a restore not finished


@dataclass(frozen=True, slots=True)
class Staged:
    """A group written under staged names: its tag and each key with its time to live."""

    tag: str
    keys: tuple[tuple[str, int | None], ...]

    @property
    def is_server(self) -> bool:
        return Group(self.tag, ()).is_server


def staged_name(key: str) -> str:
    """Where a key is staged: in its own hash slot (a key without a hash tag is its own tag)."""
    return f"{STAGING}{key}" if hash_tag(key) != key else f"{STAGING}{{{key}}}"


async def load(
    redis: RedisClient, groups: Iterable[Group], present: dict[str, set[str]], source: str
) -> tuple[set[str], int]:
    """Stage every group, then put them all into place (see the module's docstring); returns
    the servers and the number of keys written."""
    await clear_staging(redis)
    try:
        staged = [group async for group in _stage_all(redis, groups)]
    except BaseException:
        await clear_staging(redis)
        raise
    await redis.set(RESTORING_KEY, source)
    present.pop(RESTORING_KEY, None)  # an unfinished restore's marker: removed last, below
    await _in_batches(staged, lambda group: _into_place(redis, group, present.pop(group.tag, ())))
    for leftover in present.values():
        await delete_group(redis, leftover)
    servers = {group.tag for group in staged if group.is_server and group.keys}
    await index_servers(redis, servers)
    await redis.delete(RESTORING_KEY)
    return servers, sum(len(group.keys) for group in staged)


async def _stage_all(redis: RedisClient, groups: Iterable[Group]) -> AsyncIterator[Staged]:
    """Write the groups under staged names, several at once (each in its own MULTI)."""
    stream = iter(groups)
    while batch := list(islice(stream, IN_FLIGHT)):
        for group in await asyncio.gather(*(stage(redis, group) for group in batch)):
            yield group


async def _in_batches(staged: Sequence[Staged], step: Callable[[Staged], Awaitable[None]]) -> None:
    for start in range(0, len(staged), IN_FLIGHT):
        await asyncio.gather(*(step(group) for group in staged[start : start + IN_FLIGHT]))


async def stage(redis: RedisClient, group: Group) -> Staged:
    """The group's keys under staged names, in one MULTI; their times to live come later."""
    pipe: Any = redis.pipeline(transaction=True)
    if group.keys:
        pipe.delete(*(staged_name(stored.key) for stored in group.keys))
    for stored in group.keys:
        _write(pipe, staged_name(stored.key), stored)
    await pipe.execute()
    return Staged(group.tag, tuple((stored.key, stored.ttl_ms) for stored in group.keys))


async def _into_place(redis: RedisClient, group: Staged, existing: Iterable[str]) -> None:
    """Replace the tag's `existing` keys by the staged ones, in one MULTI."""
    pipe: Any = redis.pipeline(transaction=True)
    if doomed := sorted({*existing, *(key for key, _ in group.keys)}):
        pipe.delete(*doomed)
    for key, ttl_ms in group.keys:
        # Both names in one slot; redis-py's cluster pipeline blocks only its `rename` method
        pipe.execute_command("RENAME", staged_name(key), key)
        if ttl_ms is not None:
            pipe.pexpire(key, ttl_ms)
    await pipe.execute()


async def clear_staging(redis: RedisClient) -> None:
    """Remove staged keys (of this restore, or one that stopped before)."""
    async for key in redis.scan_iter(match=f"{STAGING}*", count=SCAN_COUNT):
        await redis.delete(key)


async def delete_group(redis: RedisClient, keys: Iterable[str]) -> None:
    """Delete the keys of one tag (a server the backup does not hold, under --replace)."""
    if doomed := sorted(keys):
        await redis.delete(*doomed)


async def index_servers(redis: RedisClient, servers: Iterable[str]) -> None:
    """Enter restored servers in the set of known servers, then rebuild the due index and
    their tournaments' start times."""
    members = sorted(servers)
    for start in range(0, len(members), 1000):
        await redis.sadd(SERVERS_KEY, *members[start : start + 1000])
    await RedisStore(redis).reindex_deadlines()
    await index_tournament_starts(redis, members)


def _write(pipe: Any, key: str, stored: StoredKey) -> None:
    value = stored.value
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
