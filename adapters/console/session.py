"""`open_playground`: the one call the `shutbox` CLI needs to run the local playground.

async with open_playground(settings.redis_url, settings.data_dir, "You") as playground:
    await playground.run(sys.stdin, sys.stdout)
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from adapters.console.playground import Playground
from core.dice import DiceSource
from core.manager.manager import GameManager
from core.store import GameStore


@asynccontextmanager
async def open_playground(
    redis_url: str | None,
    data_dir: str | os.PathLike[str],
    name: str = "You",
    dice: DiceSource | None = None,
) -> AsyncIterator[Playground]:
    """A playground on `redis_url`, or on an embedded Redis in `data_dir` when it is None.

    `name` is player 1's display name; `dice` replaces the secure dice (tests, demos). On exit
    the client is closed and an embedded server is shut down (its data stays in `data_dir`).
    """
    from bot.redis_server import connect  # the composition root owns Redis; imported on use

    client, server = await connect(redis_url, data_dir)
    try:
        store = GameStore(client)
        manager = GameManager(store) if dice is None else GameManager(store, dice=dice)
        yield Playground(manager, name)
    finally:
        await client.aclose()
        if server is not None:
            await server.stop()
