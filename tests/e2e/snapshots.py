"""What a test compares to say "nothing changed in Redis"."""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis


async def snapshot(redis: Redis) -> dict[str, Any]:
    """Every key's value, but the delivery claims (who announced a reply: bookkeeping that
    expires, not game state)."""
    keys = [key for key in sorted(await redis.keys("*")) if b":claim:" not in _bytes(key)]
    return {key: await redis.dump(key) for key in keys}


def _bytes(key: str | bytes) -> bytes:
    return key if isinstance(key, bytes) else key.encode()
