"""Which servers have a page, under which unguessable slug (`/shutbox web`).

Two keys: the server's own `{tag}:web` hash (field `slug`), in the server's slot, and the
global `stb:web:<slug>` string naming the server, so a request finds its server in one read.
They live in different Cluster slots, so no script writes both; the order makes that safe:
the server's field is the authority (a slug counts only while the server still names it),
written last when a page opens and removed first when it closes. `web off` therefore takes a
page down at once even if Redis fails before the global key is gone; such a leftover key
leads nowhere and is removed when the next slug replaces it.
"""

from __future__ import annotations

from typing import Any

from core.service.model import keys
from core.service.model.commit import Scope
from core.store.commit_wire import scope_of, server_key, server_member
from core.store.errors import reachable

SLUG_PREFIX = keys.WEB_SLUG  # global: in another slot than any server


class WebStore:
    """The slug of each server's page, and the server of each slug."""

    def __init__(self, redis: Any) -> None:
        self._redis = redis

    async def slug(self, scope: Scope) -> str | None:
        """The server's current slug, or None when its page is off."""
        with reachable():
            found = await self._redis.hget(server_key(scope, keys.WEB), "slug")
        return None if found is None else str(found)

    async def open(self, scope: Scope, slug: str) -> None:
        """Serve the server's page under `slug`, replacing any slug it had (rotate)."""
        old = await self.slug(scope)
        with reachable():
            await self._redis.set(SLUG_PREFIX + slug, server_member(scope))
            await self._redis.hset(server_key(scope, keys.WEB), "slug", slug)
            if old is not None and old != slug:
                await self._redis.delete(SLUG_PREFIX + old)

    async def close(self, scope: Scope) -> bool:
        """Take the server's page down; False when it had none."""
        old = await self.slug(scope)
        if old is None:
            return False
        with reachable():
            await self._redis.hdel(server_key(scope, keys.WEB), "slug")
            await self._redis.delete(SLUG_PREFIX + old)
        return True

    async def server(self, slug: str) -> Scope | None:
        """The server whose page `slug` is, or None (unknown, closed or replaced)."""
        with reachable():
            member = await self._redis.get(SLUG_PREFIX + slug)
        if member is None:
            return None
        scope = scope_of(str(member))
        return scope if await self.slug(scope) == slug else None
