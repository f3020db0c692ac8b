"""Claims: who of several deliveries or processes does a thing once (posts a game message,
announces a summary). Mixed into `RedisStore`, which sets `_redis`."""

from __future__ import annotations

from typing import Any

from core.service.model import keys
from core.service.model.commit import Scope
from core.store.commit_wire import server_key
from core.store.errors import reachable


class Claims:
    """SET NX keys of a server, each with what its winner noted and a time to live."""

    _redis: Any

    async def claim(self, scope: Scope, name: str, seconds: int) -> bool:
        """True for the first caller of `name` within `seconds` (SET NX): who posts, announces."""
        with reachable():
            key = server_key(scope, keys.claim(name))
            won: Any = await self._redis.set(key, "", nx=True, ex=seconds)
        return bool(won)

    async def release(self, scope: Scope, name: str) -> None:
        """Give a claim up (its holder failed): the next caller of `name` wins it."""
        with reachable():
            await self._redis.delete(server_key(scope, keys.claim(name)))

    async def claim_note(self, scope: Scope, name: str) -> str | None:
        """What the claim's winner noted (e.g. the message it posted); "" if nothing yet."""
        with reachable():
            found: Any = await self._redis.get(server_key(scope, keys.claim(name)))
        return None if found is None else str(found)

    async def note_claim(self, scope: Scope, name: str, note: str, seconds: int) -> None:
        with reachable():
            await self._redis.set(server_key(scope, keys.claim(name)), note, ex=seconds)
