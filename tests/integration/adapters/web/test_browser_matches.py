"""The matches of issue 32 in a real headless Chromium: from the list to a void match's replay
and to a long game's, reading what a visitor reads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web

from adapters.http import serving_app
from adapters.web.app import PREFIX, pages_app
from core.store.redis_store import RedisStore
from tests.integration.adapters.web.pages_helpers import SCOPE, SLUG
from tests.integration.adapters.web.test_browser import by, driver, run, shot  # noqa: F401
from tests.integration.adapters.web.test_match_pages import play_by_the_timer, play_long


@pytest.fixture
async def site(store: RedisStore) -> AsyncIterator[str]:
    await play_long(store)
    await play_by_the_timer(store)
    await store.web.open(SCOPE, SLUG)
    root = web.Application()
    root.add_subapp(PREFIX, pages_app(store))
    async with serving_app(root, "127.0.0.1", 0) as port:
        yield f"http://127.0.0.1:{port}/s/{SLUG}"


async def texts(driver: Any, css: str) -> list[str]:  # noqa: F811
    return list(await run(lambda: [e.text for e in driver.find_elements(by("CSS_SELECTOR"), css)]))


async def open_match(driver: Any, site: str, index: int) -> None:  # noqa: F811
    await run(driver.get, f"{site}/matches")
    links = await run(driver.find_elements, by("CSS_SELECTOR"), "ul.matches a[href*='/match/']")
    await run(links[index].click)


async def test_the_void_match_reads_void_from_list_to_review(driver: Any, site: str) -> None:  # noqa: F811
    await run(driver.get, f"{site}/matches")
    void, long = await texts(driver, "ul.matches li")
    assert "void: nobody made a move of their own, so it doesn’t count" in void
    assert "🏆" not in void and "Root " in void and "Bob " in void
    assert "Root closes tiles 🏆, Ann opens them" in long
    await open_match(driver, site, 0)
    assert "🏆" not in await run(lambda: driver.find_element(by("TAG_NAME"), "main").text)
    assert (
        await texts(driver, "ul.review li")
        == [
            "There is no decision of yours to grade in that match: the timer played your turns "
            "for you."
        ]
        * 2
    )
    await shot(driver, "replay-void")


async def test_the_long_game_replay_shows_roles_and_the_box(driver: Any, site: str) -> None:  # noqa: F811
    await open_match(driver, site, 1)
    cells = await texts(driver, "table.board td")
    assert cells == ["Root 🏆 winner", "closes tiles", "Ann", "opens them"]
    turns = await texts(driver, "ol.turns li")
    assert turns[0].startswith("Root\n⚀ ⚀ = 2 → 2") and "Round" not in "\n".join(turns)
    assert turns[-1].endswith("| · | · | · | · | · | · | · | · | · |")
    await shot(driver, "replay-long")
