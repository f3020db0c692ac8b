"""Probes and metrics for orchestrators, load balancers and Prometheus (aiohttp).

- `/livez`: 200 while the process and its event loop answer; it asks nothing else, so a Redis
  outage never gets a healthy bot restarted (that would only add a reconnect storm).
- `/readyz` (and `/healthz`, its alias): 200 with JSON while Redis answers PING and every
  platform this process serves is connected, else 503 with the same JSON saying what is wrong.
- `/metrics`: `Telemetry.registry` served by prometheus-client (text or OpenMetrics, as the
  scraper asks) at once, whatever Redis does: the gauges read from Redis are refreshed in the
  background every `REFRESH_SECONDS`, and `shutbox_redis_gauges_age_seconds` says how old they
  are (it grows while Redis does not answer, and `shutbox_redis_up` is 0 then).

This is the operator listener (SHUTBOX_HEALTH_PORT): nothing else is on it, and none of it is on
the public listener (adapters/public.py), so publishing the pages never publishes `/metrics`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler

from adapters.http import serving_app
from bot.redis_info import refresh_redis_memory
from bot.telemetry import Telemetry
from core.store.redis_store import RedisClient, RedisStore

LIVE_PATH = "/livez"
READY_PATH = "/readyz"
HEALTH_PATH = "/healthz"  # readiness under the name older probes and load balancers ask for
METRICS_PATH = "/metrics"
PING_TIMEOUT = 2.0
GAME_KEYS = "stb:{*}:game:*"
GAME_COUNT_TTL = 30.0  # a count SCANs every key, so scrapes share one count for this long
GAME_COUNT_TIMEOUT = 5.0
REFRESH_SECONDS = 5.0  # how often the Redis gauges are read, in the background
FIRST_REFRESH_WAIT = 1.0  # serving starts after the first refresh, or after this long

log = logging.getLogger("shutbox.health")
T = TypeVar("T")


@dataclass(slots=True)
class GameCounter:
    """Counts game keys with SCAN (every node of a cluster), at most once per `ttl` seconds."""

    redis: RedisClient
    ttl: float = GAME_COUNT_TTL
    clock: Callable[[], float] = time.monotonic
    _count: int | None = field(default=None, init=False)
    _counted_at: float = field(default=float("-inf"), init=False)

    async def count(self) -> int | None:
        """The number of games, or the last count (None if never) when Redis does not answer."""
        if self.clock() - self._counted_at < self.ttl:
            return self._count
        try:
            async with asyncio.timeout(GAME_COUNT_TIMEOUT):
                self._count = await self._scan()
        except Exception:  # a scrape must still answer, with the last count
            log.warning("could not count the games in Redis", exc_info=True)
        self._counted_at = self.clock()
        return self._count

    async def _scan(self) -> int:
        found = 0
        async for _ in self.redis.scan_iter(match=GAME_KEYS, count=1000):
            found += 1
        return found


class Shared(Generic[T]):
    """One run of a check at a time: callers that arrive while it runs await that same run.

    A flood of scrapes or probes then costs Redis one round of reads, not one per request,
    so it can never take the connections players' commands need.
    """

    def __init__(self) -> None:
        self._running: asyncio.Future[T] | None = None

    async def run(self, work: Callable[[], Awaitable[T]]) -> T:
        if self._running is None or self._running.done():
            self._running = asyncio.ensure_future(work())
        # shield: a scraper that hangs up must not cancel the run the others are waiting on
        return await asyncio.shield(self._running)


@dataclass(slots=True)
class HealthSources:
    """What the endpoints read: Redis, the process's telemetry, its game cache, the deadlines."""

    redis: RedisClient
    telemetry: Telemetry
    cached_games: Callable[[], int] = lambda: 0
    games: GameCounter | None = None
    store: RedisStore | None = None  # for the sweep lag; None leaves that gauge alone
    wall_clock: Callable[[], float] = time.time  # deadlines are unix seconds
    ping: Shared[str] = field(default_factory=Shared)  # concurrent probes share one PING
    stopping: Callable[[], bool] = lambda: False  # a shutdown began: not ready any more

    def __post_init__(self) -> None:
        if self.games is None:
            self.games = GameCounter(self.redis)


async def redis_status(redis: RedisClient) -> str:
    """`ok` when Redis answers PING in time, else what went wrong."""
    try:
        async with asyncio.timeout(PING_TIMEOUT):
            await redis.ping()
    except TimeoutError:
        return f"no answer within {PING_TIMEOUT:g} s"
    except Exception as error:  # any failure means unhealthy; say which
        return f"unreachable: {type(error).__name__}"
    return "ok"


async def timed_redis_status(sources: HealthSources) -> str:
    """`redis_status`, with the round trip recorded and `shutbox_redis_up` set; concurrent
    callers share one PING."""
    return await sources.ping.run(lambda: _timed_redis_status(sources))


async def _timed_redis_status(sources: HealthSources) -> str:
    metrics = sources.telemetry.metrics
    started = time.perf_counter()
    status = await redis_status(sources.redis)
    if status == "ok":
        metrics.redis_latency.observe(time.perf_counter() - started)
    metrics.redis_up.set(status == "ok")
    return status


async def health_report(sources: HealthSources) -> tuple[bool, dict[str, Any]]:
    """Whether this process can serve players, and the JSON that explains it."""
    redis = await timed_redis_status(sources)
    platforms = sources.telemetry.platforms
    stopping = sources.stopping()
    healthy = redis == "ok" and platforms.healthy and not stopping
    body = {
        "status": "stopping" if stopping else "ok" if healthy else "unhealthy",
        "redis": redis,
        "platforms": platforms.states(),
    }
    return healthy, body


def health_app(sources: HealthSources) -> web.Application:
    """The aiohttp application serving the probes and `/metrics`, and nothing else."""
    export = make_aiohttp_handler(sources.telemetry.registry)

    async def livez(request: web.Request) -> web.Response:
        # Answering at all is the proof: this handler runs on the bot's own event loop.
        return web.json_response({"status": "ok"})

    async def readyz(request: web.Request) -> web.Response:
        ready, body = await health_report(sources)
        return web.json_response(body, status=200 if ready else 503)

    async def metrics(request: web.Request) -> web.StreamResponse:
        # Only what this process knows: the Redis gauges are kept fresh in the background.
        sources.telemetry.metrics.cached_games.set(sources.cached_games())
        sources.telemetry.refresh_platforms()
        return await export(request)

    app = web.Application()
    app.router.add_get(LIVE_PATH, livez)
    app.router.add_get(READY_PATH, readyz)
    app.router.add_get(HEALTH_PATH, readyz)
    app.router.add_get(METRICS_PATH, metrics)
    return app


async def refresh_gauges(sources: HealthSources) -> bool:
    """Set the gauges read from Redis; False when Redis did not answer PING."""
    telemetry = sources.telemetry
    if await timed_redis_status(sources) != "ok":
        return False  # the rest would only wait out the same silence
    await refresh_redis_memory(sources.redis, telemetry.metrics)
    games = await sources.games.count() if sources.games else None
    if games is not None:
        telemetry.metrics.active_games.set(games)
    if sources.store is not None:
        await _refresh_sweep_lag(sources.store, sources)
    return True


@dataclass(slots=True)
class Refresher:
    """Refreshes the Redis gauges every `every` seconds, and exports their age."""

    sources: HealthSources
    every: float = REFRESH_SECONDS
    refreshed: float | None = None  # monotonic time of the last refresh Redis answered
    first: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.sources.telemetry.metrics.redis_gauges_age.set_function(self.age)

    def age(self) -> float:
        """Seconds since the Redis gauges were last read (+Inf: never)."""
        return float("inf") if self.refreshed is None else time.monotonic() - self.refreshed

    async def run(self) -> None:
        while True:
            try:
                if await refresh_gauges(self.sources):
                    self.refreshed = time.monotonic()
            except Exception:  # a broken refresh must not stop the next ones
                log.exception("could not refresh the Redis gauges")
            self.first.set()
            await asyncio.sleep(self.every)


async def _refresh_sweep_lag(store: RedisStore, sources: HealthSources) -> None:
    """Now minus the oldest deadline that has passed: how far behind the sweeps are.

    Only the servers of the platforms this process serves (and sweeps) count: a Discord bot
    is not behind on the timers of Slack games that no Slack process is running for.
    """
    platforms = sources.telemetry.platforms.states().keys()
    try:
        async with asyncio.timeout(GAME_COUNT_TIMEOUT):
            deadlines = await store.oldest_deadlines(platforms)
    except Exception:  # a scrape must still answer; the gauge keeps its last value
        log.warning("could not read the deadlines in Redis", exc_info=True)
        return
    now = sources.wall_clock()
    lag = max((now - deadline for deadline in deadlines if deadline <= now), default=0.0)
    sources.telemetry.metrics.sweep_lag.set(lag)


@asynccontextmanager
async def serving(
    sources: HealthSources,
    host: str,
    port: int,
    refresh_every: float = REFRESH_SECONDS,
) -> AsyncIterator[int]:
    """Serve the endpoints on `host:port` while the block runs; yields the bound port."""
    refresher = Refresher(sources, refresh_every)
    task = asyncio.create_task(refresher.run())
    try:
        with suppress(TimeoutError):  # a fresh first scrape, unless Redis is slow to start
            await asyncio.wait_for(refresher.first.wait(), FIRST_REFRESH_WAIT)
        async with serving_app(health_app(sources), host, port) as bound:
            yield bound
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
