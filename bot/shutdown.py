"""Stopping the way Kubernetes and systemd expect: finish acknowledged work, then exit 0.

On SIGTERM, SIGINT or SIGHUP (a closed terminal: nothing to reload, the same as SIGTERM):

1. `/readyz` answers 503 at once, so the load balancer stops sending requests here;
2. requests are still taken for the drain delay (`SHUTBOX_DRAIN_SECONDS`), while endpoints
   and load balancers catch up with step 1 (a request that reaches us then is served);
3. the listeners close, and the requests already acknowledged (bolt's background work, an
   interaction being answered) get the grace period (`SHUTBOX_GRACE_SECONDS`) to finish;
4. the platforms, Redis and the embedded Redis are closed, and the process exits 0.

A second signal skips what is left of the wait. Every step is logged.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Coroutine
from contextlib import suppress
from contextvars import ContextVar
from dataclasses import dataclass, field

log = logging.getLogger("shutbox.shutdown")

SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
CLOSE_SECONDS = 5.0  # after the grace period: closing the platforms and Redis


@dataclass(slots=True)
class Shutdown:
    """Where a process is in its shutdown; the serving code waits on its events."""

    drain: float = 0.0
    grace: float = 20.0
    requested: asyncio.Event = field(default_factory=asyncio.Event)  # readiness off
    stopping: asyncio.Event = field(default_factory=asyncio.Event)  # listeners close now
    signal_name: str = ""


# The shutdown of the process, for the runtime its service opens (bot/runtime.py).
current: ContextVar[Shutdown | None] = ContextVar("shutbox_shutdown", default=None)


async def until_signalled(
    work: Coroutine[object, object, None], drain: float = 0.0, grace: float = 20.0
) -> None:
    """Run `work` until it ends, or until a stop signal and the graceful shutdown above."""
    shutdown = Shutdown(drain, grace)
    current.set(shutdown)  # before the task is created: it runs in a copy of this context
    service = asyncio.create_task(work)
    loop = asyncio.get_running_loop()
    for signum in SIGNALS:
        with suppress(NotImplementedError):
            loop.add_signal_handler(signum, _on_signal, shutdown, service, signum)
    try:
        requested = asyncio.create_task(shutdown.requested.wait())
        await asyncio.wait({service, requested}, return_when=asyncio.FIRST_COMPLETED)
        requested.cancel()
        if not service.done():
            await _stop(shutdown, service)
    finally:
        for signum in SIGNALS:
            with suppress(NotImplementedError):
                loop.remove_signal_handler(signum)
    with suppress(asyncio.CancelledError):
        await service  # raises what the service raised (a start-up error: its exit code)


def _on_signal(shutdown: Shutdown, service: asyncio.Task[None], signum: int) -> None:
    name = signal.Signals(signum).name
    if shutdown.requested.is_set():
        log.warning("%s received again: stopping now", name)
        service.cancel()
        return
    shutdown.signal_name = name
    shutdown.requested.set()


async def _stop(shutdown: Shutdown, service: asyncio.Task[None]) -> None:
    log.info("%s received: not ready any more; taking requests for %g s (drain)",
             shutdown.signal_name, shutdown.drain)  # fmt: skip
    await asyncio.wait({service}, timeout=shutdown.drain)
    log.info("drain over: listeners closing; finishing acknowledged work (grace %g s)",
             shutdown.grace)  # fmt: skip
    shutdown.stopping.set()
    done, _ = await asyncio.wait({service}, timeout=shutdown.grace + CLOSE_SECONDS)
    if not done:
        log.warning("not stopped within %g s: cancelling what is left",
                    shutdown.grace + CLOSE_SECONDS)  # fmt: skip
        service.cancel()
    with suppress(asyncio.CancelledError):
        await asyncio.wait({service})
    log.info("stopped")
