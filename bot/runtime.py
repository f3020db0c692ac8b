"""The composition root: one Redis connection (or the embedded server), one store, one manager.

Every entry point (`shutbox run`, `play`, `discord`, `slack`, `bench`) opens a `Runtime`,
hands its manager to the adapters, and closes it on the way out.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass

from redis.asyncio import Redis

from bot.redis_server import EmbeddedRedis, connect
from core.commit import Scope
from core.dice import DiceSource
from core.manager.manager import GameManager
from core.store import GameStore
from core.views import Reply

log = logging.getLogger("shutbox")

OnTimeout = Callable[[Scope, Reply], Awaitable[None]]


@dataclass(slots=True)
class Runtime:
    redis: Redis
    store: GameStore
    manager: GameManager
    embedded: EmbeddedRedis | None


@asynccontextmanager
async def open_runtime(
    redis_url: str | None, data_dir: str | os.PathLike[str], dice: DiceSource | None = None
) -> AsyncIterator[Runtime]:
    """Connect to `redis_url`, or start the embedded server in `data_dir`; close both on exit."""
    client, server = await connect(redis_url, data_dir)
    try:
        store = GameStore(client)
        manager = GameManager(store) if dice is None else GameManager(store, dice=dice)
        yield Runtime(client, store, manager, server)
    finally:
        await client.aclose()
        if server is not None:
            await server.stop()


async def sweep_forever(
    manager: GameManager, platform: str, on_timeout: OnTimeout, every: float = 1.0
) -> None:
    """Apply passed deadlines for one platform and let its adapter show the result."""
    while True:
        try:
            for scope, reply in await manager.sweep(platform):
                await on_timeout(scope, reply)
        except Exception:  # a bad sweep must never stop the timers for good
            log.exception("deadline sweep failed")
        await asyncio.sleep(every)


@asynccontextmanager
async def sweeping(
    manager: GameManager, platform: str, on_timeout: OnTimeout, every: float = 1.0
) -> AsyncIterator[None]:
    """Run `sweep_forever` in the background while the block runs."""
    task = asyncio.create_task(sweep_forever(manager, platform, on_timeout, every))
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
