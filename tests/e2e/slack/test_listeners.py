"""Black-box: a `shutbox slack` process's two listeners. The public one (Slack's requests, the
pages) has no probe or metric; the operator one (probes, /metrics) has no page. Through the
public one a page's odd digits are the documented 400 with the safety headers, and a forged
X-Forwarded-For from a peer that is no trusted proxy does not move the per-address limit."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from redis.asyncio import Redis

from adapters.web.guard import BURST
from tests.e2e.slack.bot_process import BotProcess, slack_process
from tests.e2e.slack.fake_slack import FakeSlack

PUBLIC_URL = "https://shutbox.example/games/"
LINK = re.compile(r"https://shutbox\.example/games(/s/[A-Za-z0-9_-]{22}/)")


@pytest.fixture
async def bot(fake: FakeSlack, redis_url: str, tmp_path: Path, redis: Redis
              ) -> AsyncIterator[BotProcess]:  # fmt: skip
    async with slack_process(fake, redis_url, tmp_path, {"SHUTBOX_PUBLIC_URL": PUBLIC_URL}) as bot:
        yield bot


async def page_path(bot: BotProcess, http: aiohttp.ClientSession, fake: FakeSlack) -> str:
    """An admin turns the page on in Slack; its path on the public listener."""
    answer = await bot.driver(http, fake).say("UANN", "web on")
    found = LINK.search(answer)
    assert found, answer
    return found.group(1)


async def status(http: aiohttp.ClientSession, url: str, **headers: str) -> int:
    async with http.get(url, headers=headers) as response:
        return response.status


async def visits(http: aiohttp.ClientSession, url: str, forwarded_for: list[str]) -> list[int]:
    """One request per X-Forwarded-For value, all at once: twice the burst an address gets,
    far more than the limit refills meanwhile."""
    return list(await asyncio.gather(
        *(status(http, url, **{"X-Forwarded-For": value}) for value in forwarded_for)
    ))  # fmt: skip


MANY = 2 * BURST


async def test_the_listeners_are_apart(bot: BotProcess, fake: FakeSlack) -> None:
    async with aiohttp.ClientSession() as http:
        path = await page_path(bot, http, fake)
        assert await status(http, f"{bot.public}{path}") == 200
        assert await status(http, f"{bot.operator}{path}") == 404
        for probe in ("/metrics", "/readyz", "/livez", "/healthz"):
            assert await status(http, f"{bot.operator}{probe}") == 200
            assert await status(http, f"{bot.public}{probe}") == 404


@pytest.mark.parametrize("query", ["page=²", "season=¹", "page=①", "page=٣"])
async def test_odd_digits_are_a_400_with_the_safety_headers(
    bot: BotProcess, fake: FakeSlack, query: str
) -> None:
    async with aiohttp.ClientSession() as http:
        path = await page_path(bot, http, fake)
        async with http.get(f"{bot.public}{path}board/wins?{query}") as response:
            body = await response.text()
    assert (response.status, body) == (400, "400: Bad Request\n")
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


async def test_a_forged_forwarded_for_does_not_move_the_limit(
    bot: BotProcess, fake: FakeSlack
) -> None:
    """No SHUTBOX_TRUSTED_PROXIES: a new X-Forwarded-For on every request is still one address."""
    async with aiohttp.ClientSession() as http:
        path = await page_path(bot, http, fake)
        statuses = await visits(http, f"{bot.public}{path}", [f"10.0.0.{n}" for n in range(MANY)])
    assert statuses.count(429) >= BURST // 2


async def test_a_trusted_proxy_names_the_visitor(
    fake: FakeSlack, redis_url: str, tmp_path: Path, redis: Redis
) -> None:
    """SHUTBOX_TRUSTED_PROXIES=127.0.0.1: each visitor the proxy names has a limit of their own."""
    settings = {"SHUTBOX_PUBLIC_URL": PUBLIC_URL, "SHUTBOX_TRUSTED_PROXIES": "127.0.0.1"}
    async with slack_process(fake, redis_url, tmp_path, settings) as bot, \
            aiohttp.ClientSession() as http:  # fmt: skip
        path = await page_path(bot, http, fake)
        statuses = await visits(http, f"{bot.public}{path}", [f"10.0.0.{n}" for n in range(MANY)])
        one = await visits(http, f"{bot.public}{path}", ["10.9.9.9"] * MANY)
    assert statuses == [200] * MANY
    assert one.count(429) >= BURST // 2


async def test_slack_over_http_without_a_public_listener_stops_with_one_line(
    fake: FakeSlack, redis_url: str, tmp_path: Path, redis: Redis
) -> None:
    """SHUTBOX_PUBLIC_PORT=0 and no app token: nowhere for Slack's requests, exit 2."""
    async with slack_process(fake, redis_url, tmp_path, {"SHUTBOX_PUBLIC_PORT": "0"},
                             ready=False, code=2) as bot:  # fmt: skip
        await asyncio.wait_for(bot.process.wait(), 30)
    assert bot.log.read_text().splitlines() == [
        "shutbox: Slack over HTTP needs the public listener: set SHUTBOX_PUBLIC_PORT (0 turns it "
        "off), or use Socket Mode (SLACK_APP_TOKEN)"
    ]
