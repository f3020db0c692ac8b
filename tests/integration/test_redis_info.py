"""`shutbox_redis_used_memory_bytes` and `shutbox_build_info` on `/metrics`, from a real Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from bot.health import HealthSources, refresh_gauges, serving
from bot.metrics import Metrics, package_version
from bot.redis_info import refresh_redis_memory, used_memory
from bot.runtime import Runtime, open_runtime
from tests.integration.test_health import fetch, parsed
from tests.scale.servers import free_port


@pytest.fixture
async def runtime(redis: Redis, redis_url: str, tmp_path: Path) -> AsyncIterator[Runtime]:
    async with open_runtime(redis_url, tmp_path) as opened:
        yield opened


async def test_metrics_show_the_memory_redis_uses_and_the_version(runtime: Runtime) -> None:
    """The gauge is Redis' own used_memory, and grows with what the bot stores."""
    sources = HealthSources(runtime.redis, runtime.telemetry, store=runtime.store)
    async with serving(sources, "127.0.0.1", 0) as port:
        _, _, text = await fetch(port, "/metrics")
        samples = parsed(text)[1]
        first = samples["shutbox_redis_used_memory_bytes", ()]
        await runtime.redis.set("stb:{test:mem}:filler", "x" * 2_000_000)
        await refresh_gauges(sources)  # the background refresh, without waiting for its turn
        _, _, text = await fetch(port, "/metrics")
    info = await runtime.redis.info("memory")
    assert 0 < first < info["used_memory"]
    assert parsed(text)[1]["shutbox_redis_used_memory_bytes", ()] >= first + 2_000_000
    version = package_version()
    assert version != "unknown"
    assert samples["shutbox_build_info", (("version", version),)] == 1


async def test_a_redis_that_does_not_answer_keeps_the_last_figure() -> None:
    """A scrape while Redis is gone answers, with the gauge as it was (redis_up says why)."""
    metrics = Metrics()
    metrics.redis_memory.set(1234)
    gone = Redis(port=free_port(), socket_connect_timeout=0.5)
    await refresh_redis_memory(gone, metrics)
    await gone.aclose()
    assert metrics.registry.get_sample_value("shutbox_redis_used_memory_bytes") == 1234


async def test_used_memory_reads_one_redis(redis: Redis) -> None:
    assert await used_memory(redis) == pytest.approx((await redis.info("memory"))["used_memory"],
                                                     rel=0.05)  # fmt: skip
