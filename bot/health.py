"""`/healthz` and `/metrics` for load balancers, orchestrators and Prometheus (aiohttp).

`/healthz` answers 200 with JSON while Redis answers PING and every platform this process serves
is connected, else 503 with the same JSON saying what is wrong. `/metrics` is the Prometheus text
format of `Telemetry.registry`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from adapters.http import serving_app
from bot.metrics import CONTENT_TYPE
from bot.telemetry import Telemetry
from core.store import RedisClient

HEALTH_PATH = "/healthz"
METRICS_PATH = "/metrics"
PING_TIMEOUT = 2.0
GAME_KEYS = "stb:{*}:game:*"
GAME_COUNT_TTL = 30.0  # a count SCANs every key, so scrapes share one count for this long
GAME_COUNT_TIMEOUT = 5.0

log = logging.getLogger("shutbox.health")


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


@dataclass(slots=True)
class HealthSources:
    """What the endpoints read: the Redis client, the process's telemetry, its game cache."""

    redis: RedisClient
    telemetry: Telemetry
    cached_games: Callable[[], int] = lambda: 0
    games: GameCounter | None = None

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


async def health_report(sources: HealthSources) -> tuple[bool, dict[str, Any]]:
    """Whether this process can serve players, and the JSON that explains it."""
    redis = await redis_status(sources.redis)
    platforms = sources.telemetry.platforms
    healthy = redis == "ok" and platforms.healthy
    body = {
        "status": "ok" if healthy else "unhealthy",
        "redis": redis,
        "platforms": platforms.states(),
    }
    return healthy, body


def health_app(sources: HealthSources) -> web.Application:
    """The aiohttp application serving `/healthz` and `/metrics`."""

    async def healthz(request: web.Request) -> web.Response:
        healthy, body = await health_report(sources)
        return web.json_response(body, status=200 if healthy else 503)

    async def metrics(request: web.Request) -> web.Response:
        await refresh_gauges(sources)
        text = sources.telemetry.registry.render()
        return web.Response(body=text.encode(), headers={"Content-Type": CONTENT_TYPE})

    app = web.Application()
    app.router.add_get(HEALTH_PATH, healthz)
    app.router.add_get(METRICS_PATH, metrics)
    return app


async def refresh_gauges(sources: HealthSources) -> None:
    """Set the gauges that are read rather than counted, just before a scrape."""
    telemetry = sources.telemetry
    telemetry.redis_up.set(1 if await redis_status(sources.redis) == "ok" else 0)
    telemetry.cached_games.set(sources.cached_games())
    telemetry.refresh_platforms()
    games = await sources.games.count() if sources.games else None
    if games is not None:
        telemetry.active_games.set(games)


@asynccontextmanager
async def serving(sources: HealthSources, host: str, port: int) -> AsyncIterator[int]:
    """Serve the endpoints on `host:port` while the block runs; yields the bound port."""
    async with serving_app(health_app(sources), host, port) as bound:
        yield bound
