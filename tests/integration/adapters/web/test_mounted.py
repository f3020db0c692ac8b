"""The pages are served by the health server every bot process runs, only with a public URL."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer
from redis.asyncio import Redis

from bot.health import HealthSources, health_app
from bot.telemetry import Telemetry
from core.store.redis_store import RedisStore
from tests.integration.adapters.web.pages_helpers import SCOPE, SLUG, seed_boards


async def test_the_health_server_serves_the_pages_under_the_public_path(
    redis: Redis, store: RedisStore
) -> None:
    await seed_boards(store)
    await store.web.open(SCOPE, SLUG)
    sources = HealthSources(redis, Telemetry(), store=store)
    app = health_app(sources, "https://bot.example/shutbox/")
    async with TestClient(TestServer(app)) as web:
        response = await web.get(f"/s/{SLUG}/")
        html = await response.text()
        live = await web.get("/livez")
        assert live.headers.get("Content-Security-Policy") is None  # the probes stay as they were
    assert response.status == 200
    # the proxy serves /shutbox/ -> this server's /: links carry the public path
    assert f'href="/shutbox/s/{SLUG}/board/shuts"' in html
    assert 'href="/shutbox/s/static/style.css"' in html


async def test_without_a_public_url_there_are_no_pages(redis: Redis, store: RedisStore) -> None:
    await store.web.open(SCOPE, SLUG)
    app = health_app(HealthSources(redis, Telemetry(), store=store))
    async with TestClient(TestServer(app)) as web:
        assert (await web.get(f"/s/{SLUG}/")).status == 404
