"""`open_playground`: the local playground on a runtime (REDIS_URL, or the embedded server).

async with open_playground(redis_url, data_dir, "You") as playground:
    await playground.run(sys.stdin, sys.stdout)
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from adapters.console.playground import Playground
from bot.runtime import open_runtime
from core.dice import DiceSource


@asynccontextmanager
async def open_playground(
    redis_url: str | None,
    data_dir: str | os.PathLike[str],
    name: str = "You",
    dice: DiceSource | None = None,
) -> AsyncIterator[Playground]:
    """A playground seated as `name`; `dice` replaces the secure dice (tests, demos)."""
    async with open_runtime(redis_url, data_dir, dice) as runtime:
        yield Playground(runtime.manager, name)
