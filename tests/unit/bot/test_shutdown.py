"""`until_signalled`: a stop signal drains, lets the work finish, and closes what it opened."""

from __future__ import annotations

import asyncio
import logging
import os
import signal

import pytest

from bot import shutdown
from bot.shutdown import until_signalled


def send(signum: int, after: float = 0.05) -> None:
    asyncio.get_running_loop().call_later(after, os.kill, os.getpid(), signum)


async def serving(steps: list[str]) -> None:
    """A service as the bot's are: it serves until told to stop, then finishes its work."""
    stop = shutdown.current.get()
    assert stop is not None
    try:
        await stop.requested.wait()
        steps.append("not ready")
        await stop.stopping.wait()
        steps.append("listener closed")
        await asyncio.sleep(0.05)  # acknowledged work finishing
        steps.append("work finished")
    finally:
        steps.append("closed")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
async def test_a_stop_signal_drains_then_lets_the_work_finish(
    signum: int, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGTERM, SIGINT and SIGHUP alike: readiness first, the listener after the drain, then
    the work finishes and every `finally` runs; each step is logged."""
    steps: list[str] = []
    send(signum)
    with caplog.at_level(logging.INFO, logger="shutbox.shutdown"):
        await asyncio.wait_for(until_signalled(serving(steps), drain=0.05, grace=5), 10)
    assert steps == ["not ready", "listener closed", "work finished", "closed"]
    logged = [r.getMessage() for r in caplog.records]
    name = signal.Signals(signum).name
    assert logged[0] == f"{name} received: not ready any more; taking requests for 0.05 s (drain)"
    assert logged[-1] == "stopped"


async def test_work_that_ignores_the_stop_is_cancelled_after_the_grace_period() -> None:
    """A service that never finishes is cancelled once the grace period (and closing) is over."""
    cleaned: list[str] = []

    async def stubborn() -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            cleaned.append("closed")

    send(signal.SIGTERM)
    original = shutdown.CLOSE_SECONDS
    shutdown.CLOSE_SECONDS = 0.0
    try:
        await asyncio.wait_for(until_signalled(stubborn(), drain=0, grace=0.1), 10)
    finally:
        shutdown.CLOSE_SECONDS = original
    assert cleaned == ["closed"]


async def test_a_second_signal_stops_at_once() -> None:
    """SIGINT twice (an impatient Ctrl-C): the drain is cut short and the work cancelled."""
    cleaned: list[str] = []

    async def stubborn() -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            cleaned.append("closed")

    send(signal.SIGINT, 0.05)
    send(signal.SIGINT, 0.2)
    await asyncio.wait_for(until_signalled(stubborn(), drain=3600, grace=3600), 10)
    assert cleaned == ["closed"]


async def test_work_that_ends_by_itself_ends_the_wait() -> None:
    """When the service ends on its own, so does the wait; its error comes out as it was."""

    async def failing() -> None:
        raise ValueError("bad token")

    with pytest.raises(ValueError, match="bad token"):
        await asyncio.wait_for(until_signalled(failing()), timeout=5)
