"""`/shutbox web [on|off|rotate]` (issue 27) through a real GameManager on a real Redis: the slug,
its global index, admins only, and the one line shown without SHUTBOX_PUBLIC_URL."""

from __future__ import annotations

import re

from core.service.api.commands import Web
from core.service.model.commit import Scope
from core.service.pipeline.subcommands import NAMES
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Table, manager

URL = "https://shutbox.example/"
LINK = re.compile(r"https://shutbox\.example/s/([A-Za-z0-9_-]{20,})/")


def _table(store: RedisStore, public_url: str = URL) -> Table:
    game = manager(store)
    game.public_url = public_url
    return Table(game)


def _slug(text: str | None) -> str:
    assert text is not None
    found = LINK.search(text)
    assert found, text
    return found.group(1)


async def test_on_gives_a_link_that_finds_the_server(store: RedisStore) -> None:
    table = _table(store)
    reply = await table.manager.handle(table.ctx("Mod", admin=True), Web("on"))
    slug = _slug(reply.private)
    assert "This server's page is on" in (reply.private or "")
    assert await store.web.server(slug) == SCOPE
    assert await store.web.slug(SCOPE) == slug
    again = await table.manager.handle(table.ctx("Mod", admin=True), Web("on"))
    assert _slug(again.private) == slug  # a repeated `on` keeps the link
    shown = await table.manager.handle(table.ctx("Ann"), Web())
    assert _slug(shown.private) == slug  # anyone may ask for the link


async def test_off_takes_the_page_down_at_once(store: RedisStore) -> None:
    table = _table(store)
    slug = _slug((await table.manager.handle(table.ctx("Mod", admin=True), Web("on"))).private)
    off = await table.manager.handle(table.ctx("Mod", admin=True), Web("off"))
    assert off.private == "This server's page is off; its link no longer works."
    assert await store.web.server(slug) is None
    assert await store.web.slug(SCOPE) is None
    again = await table.manager.handle(table.ctx("Mod", admin=True), Web("off"))
    assert "is off" in (again.private or "")
    none = await table.manager.handle(table.ctx("Ann"), Web())
    assert none.private == "This server has no page. An admin can make one with `/shutbox web on`."


async def test_rotate_replaces_the_slug(store: RedisStore) -> None:
    table = _table(store)
    old = _slug((await table.manager.handle(table.ctx("Mod", admin=True), Web("on"))).private)
    reply = await table.manager.handle(table.ctx("Mod", admin=True), Web("rotate"))
    new = _slug(reply.private)
    assert new != old
    assert "The old link no longer works." in (reply.private or "")
    assert await store.web.server(old) is None
    assert await store.web.server(new) == SCOPE


async def test_a_stale_global_entry_leads_nowhere(store: RedisStore, redis: object) -> None:
    """The server's own field is the authority: an index entry left behind finds nothing."""
    table = _table(store)
    slug = _slug((await table.manager.handle(table.ctx("Mod", admin=True), Web("on"))).private)
    await store._redis.hdel(f"{SCOPE.tag}:web", "slug")  # as if `off` stopped half-way
    assert await store.web.server(slug) is None
    assert await store.web.server("no-such-slug") is None


async def test_only_admins_change_the_page(store: RedisStore) -> None:
    table = _table(store)
    for action in ("on", "off", "rotate"):
        reply = await table.manager.handle(table.ctx("Ann"), Web(action))
        assert reply.private == "Only an admin can do that."
    assert await store.web.slug(SCOPE) is None


async def test_without_a_public_address_on_says_why(store: RedisStore) -> None:
    table = _table(store, public_url="")
    reply = await table.manager.handle(table.ctx("Mod", admin=True), Web("on"))
    assert reply.private == (
        "This bot has no public address (SHUTBOX_PUBLIC_URL is not set), so it cannot serve a "
        "page; ask whoever runs it."
    )
    assert await store.web.slug(SCOPE) is None


async def test_an_unknown_action_is_one_line(store: RedisStore) -> None:
    table = _table(store)
    reply = await table.manager.handle(table.ctx("Mod", admin=True), Web("maybe"))
    assert reply.private == "`web` takes no action called “maybe”. Actions: on, off, rotate."


async def test_servers_have_their_own_slugs(store: RedisStore) -> None:
    other = Scope("test", "other")
    await store.web.open(SCOPE, "slug-one-aaaaaaaaaaaaaaaa")
    await store.web.open(other, "slug-two-bbbbbbbbbbbbbbbb")
    assert await store.web.server("slug-one-aaaaaaaaaaaaaaaa") == SCOPE
    assert await store.web.server("slug-two-bbbbbbbbbbbbbbbb") == other


def test_web_is_a_typed_subcommand() -> None:
    assert "web" in NAMES


async def test_with_an_address_but_no_public_listener_web_says_so(store: RedisStore) -> None:
    """SHUTBOX_PUBLIC_URL set, SHUTBOX_PUBLIC_PORT=0: the listeners tell the manager so."""
    table = _table(store, public_url="")
    table.manager.no_pages = "web.no_listener"
    reply = await table.manager.handle(table.ctx("Mod", admin=True), Web("on"))
    assert reply.private == (
        "This bot has a public address but no public listener (SHUTBOX_PUBLIC_PORT is 0), so it "
        "cannot serve a page; ask whoever runs it."
    )
    assert await store.web.slug(SCOPE) is None
