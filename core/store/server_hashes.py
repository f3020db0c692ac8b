"""A server's plain hashes and lists (settings, names, opt-outs, match lists), read and set as
they are. Mixed into `RedisStore`, which sets `_redis`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from redis.typing import EncodableT

from core.service.model.commit import Scope
from core.store.commit_wire import server_key
from core.store.errors import reachable


class ServerHashes:
    """Whole hashes, some fields of one, a list's newest entries."""

    _redis: Any

    async def hash(self, scope: Scope, key: str) -> dict[str, str]:
        """A whole hash of the server, e.g. `stats:<user>` or `cfg`."""
        with reachable():
            found = await self._redis.hgetall(server_key(scope, key))
        return {str(name): str(value) for name, value in found.items()}

    async def hash_fields(self, scope: Scope, key: str, fields: Sequence[str]) -> dict[str, str]:
        """The given fields of a server hash that are set: one read however big the hash is."""
        if not fields:
            return {}
        with reachable():
            found = await self._redis.hmget(server_key(scope, key), list(fields))
        return {
            name: str(value) for name, value in zip(fields, found, strict=True) if value is not None
        }

    async def newest(self, scope: Scope, key: str, count: int) -> list[str]:
        """The first `count` entries of a server list, newest first (e.g. `matches`)."""
        with reachable():
            found = await self._redis.lrange(server_key(scope, key), 0, count - 1)
        return [str(entry) for entry in found]

    async def set_fields(self, scope: Scope, key: str, values: Mapping[str, str]) -> None:
        """Set fields of a server hash (the server's configuration)."""
        if values:
            with reachable():
                await self._redis.hset(server_key(scope, key), mapping=_encodable(values))


def _encodable(values: Mapping[str, str]) -> dict[EncodableT, EncodableT]:
    return dict(values.items())
