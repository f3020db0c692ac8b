"""Reading the bot's whole namespace (`stb:` keys) for a backup, one hash slot at a time.

Keys are found with SCAN (every master of a cluster), grouped by their hash tag: a server's keys
(`stb:{platform:server}:...`) form one group, read by one Lua script, so the group is one
consistent moment of that server, as a commit script sees it. Values are read as typed values
(not DUMP payloads), so a backup of Redis 7 loads into the embedded Redis 6.2 and back.

SCAN and the reads are separate steps: a key a commit creates in between (a new game) would be
missed. So after the reads the namespace is scanned again, and a group that shows a key it did
not have is read again, whole, until none does; the file keeps the last reading (see
core/store/backup_file.py).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from typing import Any

from core.store.ledger import RedisClient

NAMESPACE = "stb:"
SCAN_COUNT = 1000
IN_FLIGHT = 16  # groups read at the same time, each on its own connection
# Rounds of reading again the groups that gained keys while the backup ran: a round's window is
# one SCAN of the namespace, so a server stops gaining keys within a few rounds even while
# people play; one still gaining after the last round is reported (`NamespaceReader.unsettled`).
REREADS = 10
# One group's keys, each as (key, type, milliseconds to live or -1, value); a key gone since
# the SCAN is left out. A stream's value is its last generated id and its entries.
READ_LUA = """
local out = {}
for _, key in ipairs(KEYS) do
  local kind = redis.call('TYPE', key)['ok']
  local value
  if kind == 'string' then value = redis.call('GET', key)
  elseif kind == 'hash' then value = redis.call('HGETALL', key)
  elseif kind == 'set' then value = redis.call('SMEMBERS', key)
  elseif kind == 'zset' then value = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  elseif kind == 'list' then value = redis.call('LRANGE', key, 0, -1)
  elseif kind == 'stream' then
    local info = redis.call('XINFO', 'STREAM', key)
    local last = '0-0'
    for i = 1, #info, 2 do
      if info[i] == 'last-generated-id' then last = info[i + 1] end
    end
    value = {last, redis.call('XRANGE', key, '-', '+')}
  elseif kind ~= 'none' then
    return redis.error_reply('a key of an unsupported type (' .. kind .. '): ' .. key)
  end
  if kind ~= 'none' then out[#out + 1] = {key, kind, redis.call('PTTL', key), value} end
end
return out
"""


@dataclass(frozen=True, slots=True)
class StoredKey:
    """One key as the backup holds it: JSON-ready `value` for its `kind`."""

    key: str
    kind: str  # string, hash, set, zset, list, stream
    ttl_ms: int | None  # milliseconds left to live at the backup; None: kept for good
    value: Any


@dataclass(frozen=True, slots=True)
class Group:
    """The keys of one hash tag (a server, or one of the shared indexes), read in one step."""

    tag: str
    keys: tuple[StoredKey, ...]

    @property
    def is_server(self) -> bool:
        return is_server_tag(self.tag)


def is_server_tag(tag: str) -> bool:
    """Servers' tags are `platform:server`; a shared index's is a word (`due`) or, without
    braces, the whole key (`stb:servers`)."""
    return ":" in tag and not tag.startswith(NAMESPACE)


def hash_tag(key: str) -> str:
    """What Redis Cluster hashes: the text between the first `{` and the next `}`, if any."""
    start = key.find("{")
    end = key.find("}", start + 1)
    return key[start + 1 : end] if start >= 0 and end > start + 1 else key


async def namespace_keys(redis: RedisClient) -> dict[str, set[str]]:
    """Every key of the namespace, by hash tag (on a cluster, from every master)."""
    found: dict[str, set[str]] = defaultdict(set)
    async for key in redis.scan_iter(match=f"{NAMESPACE}*", count=SCAN_COUNT):
        found[hash_tag(str(key))].add(str(key))
    return dict(found)


async def any_namespace_key(redis: RedisClient) -> str | None:
    """One key of the namespace, if Redis holds any."""
    async for key in redis.scan_iter(match=f"{NAMESPACE}*", count=SCAN_COUNT):
        return str(key)
    return None


class NamespaceReader:
    """Reads groups of keys, each in one script run (`decode_responses=True` client)."""

    def __init__(self, redis: RedisClient) -> None:
        self._redis = redis
        self._script = redis.register_script(READ_LUA)
        # Groups that gained keys after their last reading: it may lack keys created between
        # the last SCAN and that reading.
        self.unsettled: tuple[str, ...] = ()

    async def read(self, tag: str, keys: Iterable[str]) -> Group:
        rows: Any = await self._script(keys=sorted(keys))
        return Group(tag, tuple(_stored(row) for row in rows))

    async def groups(self) -> AsyncIterator[Group]:
        """Every group: servers first, the shared indexes (servers known, deadlines due) last,
        so the index of known servers holds every server read before it; then the groups that
        gained keys during the reads, read again."""
        tags = await namespace_keys(self._redis)
        order = sorted(tags, key=lambda tag: (not is_server_tag(tag), tag))
        read = {tag: tags[tag] for tag in order}
        servers = [tag for tag in order if is_server_tag(tag)]
        for start in range(0, len(servers), IN_FLIGHT):
            for group in await self._read_many(servers[start : start + IN_FLIGHT], read):
                yield group
        for tag in order[len(servers) :]:
            yield await self.read(tag, read[tag])
        for _ in range(REREADS):
            grown = _grown(read, await namespace_keys(self._redis))
            if not grown:
                return
            read.update(grown)
            for group in await self._read_many(list(grown), read):
                yield group
        self.unsettled = tuple(sorted(_grown(read, await namespace_keys(self._redis))))

    async def _read_many(self, tags: list[str], keys: dict[str, set[str]]) -> list[Group]:
        """Several groups at once (each still one script run): the round trips overlap."""
        return list(await asyncio.gather(*(self.read(tag, keys[tag]) for tag in tags)))


def _grown(read: dict[str, set[str]], now: dict[str, set[str]]) -> dict[str, set[str]]:
    """The groups holding a key they were not read with, with every key they were read with."""
    return {
        tag: keys | read.get(tag, set())
        for tag, keys in now.items()
        if not keys <= read.get(tag, set())
    }


def _stored(row: list[Any]) -> StoredKey:
    key, kind, ttl, value = str(row[0]), str(row[1]), int(row[2]), row[3]
    return StoredKey(key, kind, ttl if ttl > 0 else None, _json_value(kind, value))


def _json_value(kind: str, value: Any) -> Any:
    """The script's reply for one key as plain JSON values."""
    if kind == "string":
        return str(value)
    if kind == "hash":
        return {str(value[i]): str(value[i + 1]) for i in range(0, len(value), 2)}
    if kind == "zset":
        return [[str(value[i]), str(value[i + 1])] for i in range(0, len(value), 2)]
    if kind in ("set", "list"):
        return [str(item) for item in value]
    last, entries = value
    return {"last": str(last),
            "entries": [[str(i), [str(f) for f in fields]] for i, fields in entries]}  # fmt: skip
