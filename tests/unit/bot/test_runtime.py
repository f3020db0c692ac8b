"""`until_signalled`: a stop signal ends the bot cleanly, closing what it opened."""

from __future__ import annotations

import asyncio
import os
import signal

from bot.runtime import until_signalled


async def test_sigterm_cancels_the_work_and_runs_its_cleanup() -> None:
    """SIGTERM stops the service and every `finally` on the way out still runs."""
    cleaned: list[str] = []

    async def service() -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            cleaned.append("closed")

    loop = asyncio.get_running_loop()
    loop.call_later(0.05, os.kill, os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(until_signalled(service()), timeout=5)
    assert cleaned == ["closed"]
    loop.remove_signal_handler(signal.SIGTERM)
    loop.remove_signal_handler(signal.SIGINT)


async def test_work_that_ends_by_itself_ends_the_wait() -> None:
    """When the service ends on its own, so does the wait."""

    async def service() -> None:
        await asyncio.sleep(0)

    await asyncio.wait_for(until_signalled(service()), timeout=5)
    asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
    asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
