"""`/metrics` while Redis is frozen (SIGSTOP): answered at once, from the background refresh."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import aiohttp
import redis.asyncio as aioredis

from bot.health import HealthSources, serving
from bot.redis_server import client_options
from bot.telemetry import Telemetry
from core.store.redis_store import RedisStore
from tests.integration.test_health import parsed
from tests.scale.servers import free_port, redis_server

SAFETY_NET = 5.0  # seconds: only so a regression fails instead of hanging


async def scrape(port: int) -> dict[str, float]:
    """The exposition's unlabelled samples, by name."""
    timeout = aiohttp.ClientTimeout(total=SAFETY_NET)
    async with (
        aiohttp.ClientSession(timeout=timeout) as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200
        text = await response.text()
    return {name: value for (name, labels), value in parsed(text)[1].items() if not labels}


async def test_metrics_answer_from_the_last_refresh_while_redis_is_frozen(
    tmp_path: Path,
) -> None:
    """Redis stops answering: scrapes still answer, the gauges' age grows, and the background
    refresh sets shutbox_redis_up to 0 once its PING times out."""
    with redis_server(tmp_path / "redis", free_port()) as server:
        client = aioredis.from_url(server.url, **client_options())
        sources = HealthSources(client, Telemetry(), store=RedisStore(client))
        try:
            async with serving(sources, "127.0.0.1", 0, refresh_every=0.1) as port:
                fresh = await scrape(port)
                assert fresh["shutbox_redis_up"] == 1
                assert fresh["shutbox_redis_gauges_age_seconds"] < 1
                server.process.send_signal(signal.SIGSTOP)
                try:
                    frozen = await scrape(port)  # answered without asking Redis anything
                    assert frozen["shutbox_active_games"] == fresh["shutbox_active_games"]
                    for _ in range(200):
                        samples = await scrape(port)
                        if samples["shutbox_redis_up"] == 0:
                            break
                        await asyncio.sleep(0.05)
                    assert samples["shutbox_redis_up"] == 0
                    assert (
                        samples["shutbox_redis_gauges_age_seconds"]
                        > (frozen["shutbox_redis_gauges_age_seconds"])
                    )
                finally:
                    server.process.send_signal(signal.SIGCONT)
        finally:
            await client.aclose()
