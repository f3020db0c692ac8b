"""The store's tests share these: one server, two players, a lobby and its next move."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from redis.asyncio import Redis

from core.game.settlement import Transfer
from core.service.model.commit import (
    Commit,
    Scope,
)

SCOPE = Scope("discord", "g1")
ANN, BEN = "u1", "u2"
POT = "pot:c1"
DAY = 86_400


def new_game(channel: str = "c1", **changes: Any) -> Commit:
    """A lobby opened in `channel` by Ann and Ben, who get their start balance if new."""
    base = Commit(
        scope=SCOPE,
        channel=channel,
        record=f"lobby {channel}",
        version=1,
        ensure_accounts=(ANN, BEN),
        report_accounts=(ANN, BEN),
    )
    return replace(base, **changes)


def next_move(version: int, **changes: Any) -> Commit:
    """The game in c1 going from `version` to `version + 1`."""
    base = Commit(
        scope=SCOPE,
        channel="c1",
        expected_version=version,
        record=f"move {version + 1}",
        version=version + 1,
    )
    return replace(base, **changes)


ANTES = (Transfer(ANN, POT, 10), Transfer(BEN, POT, 10))


async def everything(redis: Redis) -> dict[str, Any]:
    """Every key of the database with its value, to prove a refused commit wrote nothing."""
    found: dict[str, Any] = {}
    for key in sorted(await redis.keys("*")):
        kind = await redis.type(key)
        readers: dict[str, Callable[[str], Awaitable[Any]]] = {
            "string": redis.get,
            "hash": redis.hgetall,
            "zset": lambda k: redis.zrange(k, 0, -1, withscores=True),
            "stream": redis.xrange,
            "set": redis.smembers,
        }
        found[key] = await readers[kind](key)
    return found
