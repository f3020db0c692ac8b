"""The requests a process has acknowledged and is still working on, so a shutdown can wait.

bolt acknowledges a Slack request and goes on with the listener in a background task that
nothing else holds; a Discord interaction runs in a task of discord.py's. Each adapter tracks
that task here while it works, and a graceful shutdown waits (for a grace period) until none is
left: acknowledged work is finished, not dropped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger("shutbox.shutdown")

LISTED = 10  # requests named in the log line, at most


class InFlight:
    """The tasks working on acknowledged requests, each with a short description."""

    def __init__(self) -> None:
        self._work: dict[asyncio.Task[object], str] = {}
        self._idle = asyncio.Event()
        self._idle.set()

    def __len__(self) -> int:
        return len(self._work)

    @contextmanager
    def track(self, what: str) -> Iterator[None]:
        """The current task works on `what` until the block ends."""
        task = asyncio.current_task()
        if task is None:  # not inside a task: nothing could be waited for anyway
            yield
            return
        self._work[task] = what
        self._idle.clear()
        try:
            yield
        finally:
            self._work.pop(task, None)
            if not self._work:
                self._idle.set()

    async def drain(self, grace: float) -> bool:
        """Wait until nothing is in flight, at most `grace` seconds; logs what it waited for.

        True when everything finished in time.
        """
        if not self._work:
            log.info("no requests in flight")
            return True
        waiting = list(self._work.values())
        named = ", ".join(waiting[:LISTED]) + (", ..." if len(waiting) > LISTED else "")
        log.info("waiting up to %g s for %d request(s) in flight: %s", grace, len(waiting), named)
        started = time.monotonic()
        try:
            async with asyncio.timeout(grace):
                await self._idle.wait()
        except TimeoutError:
            left = ", ".join(list(self._work.values())[:LISTED])
            log.warning("gave up on %d request(s) after %g s: %s", len(self._work), grace, left)
            return False
        log.info("%d request(s) finished in %.1f s", len(waiting), time.monotonic() - started)
        return True
