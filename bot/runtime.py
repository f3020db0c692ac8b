"""The composition root: one Redis connection (or the embedded server), one store, one manager.

Every entry point (`shutbox run`, `play`, `discord`, `slack`, `bench`) opens a `Runtime`,
hands its manager to the adapters, and closes it on the way out. The bot servers also wrap their
work in `serving_listeners(settings, runtime, platforms)` (bot/listeners.py) for the probes,
`/metrics` and the public side.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from adapters.http import LateRoutes
from adapters.inflight import InFlight
from bot.commands import CommandError
from bot.instrument import Instrument, Observer
from bot.redis_server import EmbeddedRedis, connect
from bot.shutdown import Shutdown, until_signalled
from bot.shutdown import current as current_shutdown
from bot.telemetry import Telemetry, log_action
from core.game.dice import DiceSource, SecureDice
from core.service.model.commit import Scope
from core.service.model.views import Reply
from core.service.pipeline.bus import Middleware
from core.service.pipeline.manager import GameManager
from core.service.pipeline.rate_limit import RateLimits
from core.service.pipeline.runtime import CacheSizes
from core.store.redis_store import RedisClient, RedisStore, StoreUnavailable

if TYPE_CHECKING:
    from bot.sections import CoreSettings

__all__ = ["OnTimeout", "Runtime", "open_runtime", "sweeping", "until_signalled"]

log = logging.getLogger("shutbox")

OnTimeout = Callable[[Scope, Reply], Awaitable[None]]
_STORE_DOWN = "the game store can't be reached or refuses writes"


@dataclass(slots=True)
class Runtime:
    redis: RedisClient
    store: RedisStore
    manager: GameManager
    embedded: EmbeddedRedis | None
    telemetry: Telemetry = field(default_factory=Telemetry)
    # How the process stops (bot/shutdown.py); one that never fires outside `until_signalled`.
    shutdown: Shutdown = field(default_factory=Shutdown)
    # The requests acknowledged and still being worked on, across this runtime's platforms.
    inflight: InFlight = field(default_factory=InFlight)
    # POST routes of the public listener bound by the platforms that take them (Discord's)
    posts: LateRoutes = field(default_factory=LateRoutes)

    async def until_stopping(self) -> None:
        """Return when the listeners should close (the drain is over), else never."""
        await self.shutdown.stopping.wait()

    async def finish_inflight(self) -> None:
        """Give the acknowledged requests the grace period to finish (the listeners are shut)."""
        await self.inflight.drain(self.shutdown.grace)


@asynccontextmanager
async def open_runtime(
    redis_url: str | None, data_dir: str | os.PathLike[str], dice: DiceSource | None = None,
    core: CoreSettings | None = None,
) -> AsyncIterator[Runtime]:  # fmt: skip
    """Connect to `redis_url`, or start the embedded server in `data_dir`; close both on exit.

    A bot server passes its `core` settings: the members' rate limits and the season archives
    kept. Tools and the playground leave them out (no limits; every archive kept).
    """
    client, server = await connect(redis_url, data_dir)
    try:
        telemetry = Telemetry()
        store = (
            RedisStore(client, request_ttl=core.request_ttl, seasons_kept=core.seasons_kept,
                       on_unreadable=telemetry.unreadable)
            if core else RedisStore(client, on_unreadable=telemetry.unreadable)
        )  # fmt: skip
        observers: list[Observer] = [telemetry.observe, log_action]
        middleware: list[Middleware] = [Instrument(observers)]
        if core is not None:  # inside Instrument, so a refusal is counted and logged
            limits = core.limits()
            middleware.append(RateLimits(store.admin, limits.commands, limits.games))
        manager = GameManager(
            store, dice=dice or SecureDice(), middleware=tuple(middleware),
            on_unreadable=telemetry.unreadable,
            cache_sizes=core.cache_sizes() if core is not None else CacheSizes(),
        )  # fmt: skip
        shutdown = current_shutdown.get() or Shutdown()
        yield Runtime(client, store, manager, server, telemetry, shutdown)
    except (StoreUnavailable, RedisConnectionError, RedisTimeoutError):
        # a tool (ledger, bench) that needs Redis and cannot reach it
        where = "REDIS_URL" if redis_url else f"the embedded Redis in {data_dir}"
        raise CommandError(f"{where} can't be reached", exit_code=1) from None
    finally:
        await client.aclose()
        if server is not None:
            await server.stop()


async def sweep_forever(
    manager: GameManager,
    platform: str,
    on_timeout: OnTimeout,
    every: float = 1.0,
    stop: asyncio.Event | None = None,
    owns: Callable[[Scope], bool] | None = None,
) -> None:
    """Apply passed deadlines for one platform (the servers `owns` accepts) and show them.

    A store that goes away is logged once (a warning), and once again when it is back (info):
    not a traceback every second for as long as Redis is down.
    """
    stop = stop or asyncio.Event()
    store_down = False
    reindexed = False
    while not stop.is_set():
        try:
            if not reindexed:  # tried on every sweep until it succeeds (Redis may be away)
                # a process that died between a commit and its index write: its deadlines
                # come back into the due index
                await manager.store.reindex_deadlines(platform)
                reindexed = True
            for scope, reply in await manager.sweep(platform, owns):
                await on_timeout(scope, reply)
        except StoreUnavailable as error:
            if not store_down:
                log.warning("deadline sweep paused: %s (%s); trying again every %g s",
                            _STORE_DOWN, type(error).__name__, every)  # fmt: skip
            store_down = True
        except Exception:  # a bad sweep must never stop the timers for good
            log.exception("deadline sweep failed")
        else:
            if store_down:
                log.info("deadline sweep resumed: the game store answers again")
            store_down = False
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)


@asynccontextmanager
async def sweeping(
    manager: GameManager,
    platform: str,
    on_timeout: OnTimeout,
    every: float = 1.0,
    owns: Callable[[Scope], bool] | None = None,
) -> AsyncIterator[None]:
    """Run `sweep_forever` in the background while the block runs.

    It is stopped by an event, not only by cancelling: on Python 3.11 a cancel that lands
    inside redis-py's `wait_for` can be lost, and the loop would never end.
    """
    stop = asyncio.Event()
    task = asyncio.create_task(sweep_forever(manager, platform, on_timeout, every, stop, owns))
    try:
        yield
    finally:
        stop.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout=every + 10)
        except TimeoutError:
            task.cancel()
        with suppress(asyncio.CancelledError):
            await task
