"""Reading and writing the terminal without blocking the event loop (deadlines keep running)."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import Sequence
from typing import TextIO


def _read_blocking(stdin: TextIO, stdout: TextIO, prompt: str) -> str | None:
    """One line without its newline, or None at end of input."""
    if stdin is sys.stdin and stdout is sys.stdout:
        try:
            return input(prompt)  # line editing where the terminal offers it
        except EOFError:
            return None
    stdout.write(prompt)
    stdout.flush()
    line = stdin.readline()
    return line.rstrip("\n") if line else None


async def read_line(
    stdin: TextIO, stdout: TextIO, prompt: str, stop: asyncio.Event | None = None
) -> str | None:
    """Read one line in a daemon thread, so Ctrl-C or `quit` never waits for a pending read;
    None at end of input, or once `stop` is set (a Ctrl-C whose cancel was lost)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str | None] = loop.create_future()

    def deliver(line: str | None) -> None:
        if not future.done():
            future.set_result(line)

    def work() -> None:
        try:
            line = _read_blocking(stdin, stdout, prompt)
        except (OSError, ValueError):  # stdin closed under us
            line = None
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits for it
            loop.call_soon_threadsafe(deliver, line)

    threading.Thread(target=work, name="playground-input", daemon=True).start()
    if stop is None:
        return await future
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((future, stopped), return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
    return future.result() if future.done() else None


def write_lines(stdout: TextIO, lines: Sequence[str], prompt: str | None = None) -> None:
    """Print lines (and the prompt again when they interrupt a pending read)."""
    if lines:
        stdout.write("\n".join(lines) + "\n")
    if prompt is not None:
        stdout.write(prompt)
    stdout.flush()
