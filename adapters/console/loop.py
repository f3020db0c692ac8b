"""The playground's interactive loop: each typed line's answer written out, the deadlines swept
every second meanwhile, and a bug in one command never ending the session."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol, TextIO

from adapters.console.terminal import read_line, write_lines
from core.game.errors import ShutboxError
from core.service.model.views import GameView
from core.text.i18n import t


class Playground(Protocol):
    """What the loop needs of the playground (adapters/console/playground.py)."""

    tty: bool
    done: bool
    lang: str

    @property
    def prompt(self) -> str: ...

    def welcome(self) -> list[str]: ...

    def failed(self) -> list[str]: ...

    async def load_view(self) -> GameView | None: ...

    async def send(self, line: str) -> list[str]: ...

    async def tick(self) -> list[str]: ...

SWEEP_SECONDS = 1.0

log = logging.getLogger(__name__)


async def run(
    playground: Playground, stdin: TextIO, stdout: TextIO, stop: asyncio.Event | None = None
) -> None:
    """Until `quit`, end of input or `stop` (a Ctrl-C); a game left running by an earlier run is
    shown first."""
    playground.tty = stdout.isatty()
    write_lines(stdout, playground.welcome())
    if await playground.load_view() is not None:
        running = t(playground.lang, "playground.running")
        write_lines(stdout, [running, *await playground.send("show")])
    ticker = asyncio.create_task(_sweep_forever(playground, stdout))
    try:
        while not playground.done:
            line = await read_line(stdin, stdout, playground.prompt, stop)
            if line is None:
                break
            write_lines(stdout, await _send_safely(playground, line))
    finally:
        ticker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ticker


async def _send_safely(playground: Playground, line: str) -> list[str]:
    """`send`, but a bug in one command must not end the whole session."""
    try:
        return await playground.send(line)
    except Exception:
        # The details are for the log (a file or a developer's terminal), not the table.
        log.exception("playground command failed: %s", line)
        return playground.failed()


async def _sweep_forever(playground: Playground, stdout: TextIO) -> None:
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        with contextlib.suppress(ShutboxError):
            lines = await playground.tick()
            if lines:
                write_lines(stdout, ["", *lines], prompt=playground.prompt)
