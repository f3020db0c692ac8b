"""What a visitor can do to a page that a browser would not: a failing page still carries the
safety headers, a name turned right to left stays in its place, a very long name is cut, and
the board pictures not drawn lately are limited per address."""

from __future__ import annotations

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from adapters.pictures import PictureLinks, Renders, add_picture_routes, derived_key
from adapters.web.guard import Buckets
from adapters.web.names import MAX_NAME
from core.service.model.commit import Commit, OpKind, StoreOp
from core.store.redis_store import RedisStore, StoreUnavailable
from core.text.drawn import DrawnBoard
from tests.integration.adapters.web.pages_helpers import SCOPE, SLUG, client

ROOT = f"/s/{SLUG}"
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: what follows it is shown turned around


async def named(store: RedisStore, name: str) -> None:
    await store.commit(Commit(SCOPE, ops=(
        StoreOp(OpKind.HSET, "names", "u-odd", name),
        StoreOp(OpKind.ZINCRBY, "lb:wins", "u-odd", 7),
    )))  # fmt: skip
    await store.web.open(SCOPE, SLUG)


async def test_a_page_that_fails_is_a_plain_500_with_the_safety_headers(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def away(slug: str) -> None:
        raise StoreUnavailable()

    monkeypatch.setattr(store.web, "server", away)
    async with client(store) as visitor:
        response = await visitor.get(f"{ROOT}/")
        body = await response.text()
    assert response.status == 500
    assert body == "500: Internal Server Error\n"
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert response.headers["Cache-Control"] == "no-store"


async def test_a_right_to_left_name_is_isolated(store: RedisStore) -> None:
    await named(store, f"{RLO}nnA")
    async with client(store) as visitor:
        html = await (await visitor.get(f"{ROOT}/board/wins")).text()
    assert f"><bdi>{RLO}nnA</bdi></a>" in html
    assert f">{RLO}" not in html.replace(f"<bdi>{RLO}", "")  # never outside its <bdi>


async def test_a_name_of_ten_thousand_characters_is_cut(store: RedisStore) -> None:
    await named(store, "W" * 10_000)
    async with client(store) as visitor:
        html = await (await visitor.get(f"{ROOT}/board/wins")).text()
    assert f"<bdi>{'W' * (MAX_NAME - 1)}…</bdi>" in html
    assert "W" * MAX_NAME not in html
    assert len(html.encode()) < 10_000


def picture_app(renders: Renders) -> tuple[web.Application, PictureLinks]:
    links = PictureLinks("https://bot.example", derived_key("secret"))
    app = web.Application()
    add_picture_routes(app, links, renders)
    return app, links


async def test_pictures_not_drawn_lately_are_limited_per_address() -> None:
    """Three new pictures at most, then 429; one already drawn is still served."""
    renders = Renders(buckets=Buckets(rate=0.001, burst=3))
    app, links = picture_app(renders)
    boards = [DrawnBoard(9, mask).to_token() for mask in range(1, 6)]
    paths = [links.url(token).removeprefix("https://bot.example") for token in boards]
    async with TestClient(TestServer(app)) as visitor:
        statuses = [(await visitor.get(path)).status for path in paths]
        again = await visitor.get(paths[0])
        refused = await visitor.get(paths[4])
    assert statuses == [200, 200, 200, 429, 429]
    assert again.status == 200 and again.headers["Content-Type"] == "image/png"
    assert refused.headers["Retry-After"] == "30"
    for answer in (again, refused):  # the pages' safety headers, on pictures and refusals too
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Content-Security-Policy"].startswith("default-src 'none'")
