"""`open_playground`: the local playground on a runtime (REDIS_URL, or the embedded server).

with log_to_file(data_dir):
    async with open_playground(redis_url, data_dir, "Ann") as playground:
        await playground.run(sys.stdin, sys.stdout)
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from adapters.console.playground import PICTURE_NOTE, SCOPE, Playground
from bot.logs import setup_logging
from bot.runtime import open_runtime
from core.game.dice import DiceSource

LOG_FILE = "playground.log"


@asynccontextmanager
async def open_playground(
    redis_url: str | None,
    data_dir: str | os.PathLike[str],
    name: str | None = None,
    dice: DiceSource | None = None,
) -> AsyncIterator[Playground]:
    """A playground seated as `name` (else the login name); `dice` replaces the secure dice."""
    async with open_runtime(redis_url, data_dir, dice) as runtime:
        manager = runtime.manager
        manager.picture_notes[SCOPE.platform] = PICTURE_NOTE
        manager.no_pages = "web.playground"  # whatever SHUTBOX_PUBLIC_URL says: no web server
        yield Playground(manager, name, clock=manager.clock, sweep=manager.sweep)


@contextmanager
def log_to_file(
    data_dir: str | os.PathLike[str], level: str = "INFO", json: bool = False
) -> Iterator[Path]:
    """Send the log to `<data_dir>/playground.log`: log lines must not land in the game screen."""
    path = Path(data_dir) / LOG_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as stream:
        setup_logging(level, json, stream)
        yield path
