"""The pages are on the public listener only, and only with a public URL; the operator listener
(probes, /metrics) serves none of them."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer
from redis.asyncio import Redis

from adapters.public import PublicSide
from bot.health import HealthSources, health_app
from bot.telemetry import Telemetry
from core.store.redis_store import RedisStore
from tests.integration.adapters.web.pages_helpers import SCOPE, SLUG, seed_boards


async def test_the_public_side_serves_the_pages_under_the_public_path(store: RedisStore) -> None:
    await seed_boards(store)
    await store.web.open(SCOPE, SLUG)
    app = PublicSide(store, "https://bot.example/shutbox/").app()
    async with TestClient(TestServer(app)) as web:
        response = await web.get(f"/s/{SLUG}/")
        html = await response.text()
        metrics = await web.get("/metrics")
    assert response.status == 200
    # the proxy serves /shutbox/ -> this server's /: links carry the public path
    assert f'href="/shutbox/s/{SLUG}/board/shuts"' in html
    assert 'href="/shutbox/s/static/style.css"' in html
    assert metrics.status == 404


async def test_the_operator_listener_serves_no_page(redis: Redis, store: RedisStore) -> None:
    await store.web.open(SCOPE, SLUG)
    app = health_app(HealthSources(redis, Telemetry(), store=store))
    async with TestClient(TestServer(app)) as web:
        assert (await web.get(f"/s/{SLUG}/")).status == 404
        assert (await web.get("/board/x.png")).status == 404
        assert (await web.get("/metrics")).status == 200


async def test_without_a_public_url_there_are_no_pages(store: RedisStore) -> None:
    await store.web.open(SCOPE, SLUG)
    async with TestClient(TestServer(PublicSide(store).app())) as web:
        assert (await web.get(f"/s/{SLUG}/")).status == 404
