"""The pages in a real headless Chromium: click through a leaderboard to a player, and check
that the in-browser verifier says what `shutbox verify` says for a real fair match and for the
same record with one roll tampered with.

Set SHUTBOX_SCREENSHOTS to a folder to save a PNG of each page there (docs/web-*.png).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from adapters.http import serving_app
from adapters.web.app import PREFIX, pages_app
from bot.commands.verify import describe
from core.game.dice import MatchRecord, SecureDice, verify_record
from core.service.api.commands import Solo
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.adapters.web.browser import chromium
from tests.integration.adapters.web.pages_helpers import (
    IMG,
    SCOPE,
    SCRIPT,
    SLUG,
    play_hostile_match,
    seed_boards,
    seed_challenge,
)
from tests.integration.manager_helpers import Table, manager

SHOTS = os.environ.get("SHUTBOX_SCREENSHOTS")


@pytest.fixture(scope="module")
def driver() -> Any:
    session: Any = chromium()
    yield session
    session.quit()


@pytest.fixture
async def site(store: RedisStore) -> AsyncIterator[str]:
    await seed_boards(store, players=30)
    await seed_challenge(store, time.time())
    for _ in range(3):
        await play_hostile_match(store)
    await store.web.open(SCOPE, SLUG)
    root = web.Application()
    root.add_subapp(PREFIX, pages_app(store))
    async with serving_app(root, "127.0.0.1", 0) as port:
        yield f"http://127.0.0.1:{port}/s/{SLUG}"


async def run(call: Callable[..., Any], *args: Any) -> Any:
    """A blocking WebDriver call, off the event loop that serves the pages."""
    return await asyncio.to_thread(call, *args)


async def shot(driver: Any, name: str) -> None:
    if SHOTS:
        height = await run(driver.execute_script, "return document.documentElement.scrollHeight")
        await run(driver.set_window_size, 430, max(700, min(int(height) + 40, 2400)))
        await run(driver.save_screenshot, str(Path(SHOTS) / f"web-{name}.png"))
        await run(driver.set_window_size, 430, 1000)


def by(kind: str) -> Any:
    from selenium.webdriver.common.by import By

    return getattr(By, kind)


async def wait_for_text(driver: Any, element_id: str) -> str:
    for _ in range(100):
        text = await run(lambda: driver.find_element(by("ID"), element_id).text)
        if text:
            return str(text)
        await asyncio.sleep(0.05)
    raise AssertionError(f"#{element_id} stayed empty")


async def test_a_leaderboard_clicks_through_to_a_player(driver: Any, site: str) -> None:
    await run(driver.get, f"{site}/")
    await shot(driver, "leaderboard")
    await run(lambda: driver.find_element(by("LINK_TEXT"), "Next →").click())
    assert "page=2" in driver.current_url
    names = await run(lambda: [e.text for e in driver.find_elements(by("CSS_SELECTOR"), "td.name")])
    assert SCRIPT in names and IMG in names  # shown as text, not run
    assert await run(driver.execute_script, "return document.querySelectorAll('img').length") == 0
    await run(lambda: driver.find_element(by("LINK_TEXT"), SCRIPT).click())
    assert await run(lambda: driver.find_element(by("TAG_NAME"), "h1").text) == SCRIPT
    await shot(driver, "player")
    await run(lambda: driver.find_element(by("LINK_TEXT"), "Leaderboards").click())
    await run(lambda: driver.find_element(by("PARTIAL_LINK_TEXT"), "Most boxes shut").click())
    assert driver.current_url.endswith("/board/shuts")
    assert await run(lambda: driver.find_element(by("TAG_NAME"), "h1").text) == "🎉 Most boxes shut"
    await run(lambda: driver.find_element(by("LINK_TEXT"), "Daily challenge").click())
    assert driver.current_url.endswith("/challenge")
    assert SCRIPT not in driver.page_source.replace("&lt;", "<")  # unfinished: not listed
    await shot(driver, "challenge")


async def fair_record(store: RedisStore) -> MatchRecord:
    """A real provably fair solo match, played out; its published record."""
    table = Table(manager(store, dice=SecureDice()))
    table.last = await table.manager.handle(table.ctx("Ann"), Solo(StartOptions(fair=True)))
    final = await table.play_out()
    found = re.search(r'`(\{"scheme".*?\})`', "\n".join(final.public))
    assert found, final.public
    return MatchRecord.from_json(found.group(1))


async def check(driver: Any, site: str, text: str) -> tuple[str, list[str]]:
    await run(driver.get, f"{site}/verify")
    box = await run(driver.find_element, by("ID"), "record")
    await run(box.clear)
    await run(box.send_keys, text)
    await run(lambda: driver.find_element(by("ID"), "check").click())
    verdict = await wait_for_text(driver, "verdict")
    rows = await run(lambda: [
        row.get_attribute("data-verified")
        for row in driver.find_elements(by("CSS_SELECTOR"), "#rolls tbody tr")
    ])  # fmt: skip
    return verdict, rows


async def test_the_verifier_agrees_with_shutbox_verify(
    driver: Any, site: str, store: RedisStore
) -> None:
    record = await fair_record(store)
    verdict, rows = await check(driver, site, record.to_json())
    assert verdict == describe(verify_record(record), record)
    assert verdict.startswith("OK:")
    assert rows == ["yes"] * len(record.rolls)
    await shot(driver, "verify")

    data = json.loads(record.to_json())
    middle = len(data["rolls"]) // 2
    data["rolls"][middle] = [7 - die for die in data["rolls"][middle]]  # every die flipped
    tampered = MatchRecord.from_json(json.dumps(data))
    verdict, rows = await check(driver, site, json.dumps(data))
    assert verdict == describe(verify_record(tampered), tampered)
    assert verdict.startswith(f"FAILED: roll {middle + 1} (nonce {middle})")
    assert rows[middle] == "no" and rows.count("no") == 1
    await shot(driver, "verify-tampered")


@pytest.mark.parametrize(
    ("change", "start"),
    [
        (lambda d: d.update(server_seed=d["server_seed"].upper()), "FAILED: the revealed server"),
        (lambda d: d.update(commitment="0" * 64), "FAILED: the revealed server seed does not"),
        (lambda d: d["rolls"].append([]), "FAILED: roll"),
    ],
)
async def test_every_failure_reads_as_the_command_line_says(
    driver: Any, site: str, store: RedisStore, change: Callable[[dict[str, Any]], None],
    start: str,
) -> None:  # fmt: skip
    data = json.loads((await fair_record(store)).to_json())
    change(data)
    record = MatchRecord.from_json(json.dumps(data))
    verdict, _ = await check(driver, site, json.dumps(data))
    assert verdict == describe(verify_record(record), record)
    assert verdict.startswith(start)


async def test_a_paste_that_is_no_record_says_so(driver: Any, site: str, store: RedisStore) -> None:
    from bot.commands import CommandError
    from bot.commands.verify import parse_record

    real = (await fair_record(store)).to_json()
    first = json.loads(real)["rolls"][0]
    floats = real.replace(f"[{first[0]},", f"[{first[0]}.0,", 1)  # Python reads a float there
    booleans = real.replace('"rolls":[', '"rolls":[true,')
    for text in ('{"scheme": "something else"}', floats, booleans):
        with pytest.raises(CommandError):
            parse_record(text)  # what `shutbox verify` says: not a match record
        verdict, rows = await check(driver, site, text)
        assert verdict == "Not a match record (hmac-sha256-v1 JSON with seeds and rolls)."
        assert rows == []


async def test_a_replay_leads_to_its_verified_dice(driver: Any, site: str) -> None:
    await run(driver.get, f"{site}/")
    await run(lambda: driver.find_element(by("LINK_TEXT"), "Matches").click())
    await shot(driver, "matches")
    await run(lambda: driver.find_element(by("CSS_SELECTOR"), "ul.matches li > a").click())
    assert "/match/" in driver.current_url
    turns = await run(lambda: driver.find_elements(by("CSS_SELECTOR"), "ol.turns li"))
    assert turns and SCRIPT in turns[0].text  # the host rolled first; the name is text
    headings = await run(lambda: [e.text for e in driver.find_elements(by("TAG_NAME"), "h2")])
    assert any(h.startswith("Every decision against perfect play") for h in headings)
    await shot(driver, "replay")
    await run(lambda: driver.find_element(by("PARTIAL_LINK_TEXT"), "Provably fair dice").click())
    verdict = await wait_for_text(driver, "verdict")  # a filled-in record is checked at once
    assert verdict.startswith("OK: the server seed matches the commitment and all ")
    rows = await run(lambda: [
        row.get_attribute("data-verified")
        for row in driver.find_elements(by("CSS_SELECTOR"), "#rolls tbody tr")
    ])  # fmt: skip
    assert rows and set(rows) == {"yes"}
