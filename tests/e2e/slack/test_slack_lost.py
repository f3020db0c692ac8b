"""Black-box: a `shutbox slack` process that loses Slack after start-up says so on /readyz and in
shutbox_platform_connected (what ShutboxPlatformDisconnected fires on), logs it once, and turns
ready again when Slack answers."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio import Redis

from tests.e2e.slack.bot_process import BotProcess, slack_process
from tests.e2e.slack.fake_slack import FakeSlack, Fault
from tests.e2e.slack.test_cli import START_SECONDS, wait_until_healthy

CHECK = "0.2"  # SLACK_CHECK_SECONDS: the process asks Slack this often
OUTAGE = 1000  # auth.test answers 503 this many times


async def readiness(http: aiohttp.ClientSession, bot: BotProcess) -> tuple[int, Any]:
    async with http.get(f"{bot.operator}/readyz") as response:
        return response.status, await response.json()


async def slack_gauge(http: aiohttp.ClientSession, bot: BotProcess) -> float:
    async with http.get(f"{bot.operator}/metrics") as response:
        text = await response.text()
    family = next(f for f in text_string_to_metric_families(text)
                  if f.name == "shutbox_platform_connected")  # fmt: skip
    return next(s.value for s in family.samples if s.labels["platform"] == "slack")


async def until_unready(http: aiohttp.ClientSession, bot: BotProcess) -> Any:
    async with asyncio.timeout(START_SECONDS):
        while True:
            status, body = await readiness(http, bot)
            if status == 503:
                return body
            await asyncio.sleep(0.1)


async def test_slack_lost_after_start_turns_readyz_red_until_it_answers(
    fake: FakeSlack, redis_url: str, tmp_path: Path, redis: Redis
) -> None:
    settings = {"SLACK_CHECK_SECONDS": CHECK}
    async with slack_process(fake, redis_url, tmp_path, settings) as bot, \
            aiohttp.ClientSession() as http:  # fmt: skip
        assert await slack_gauge(http, bot) == 1
        fake.fail("auth.test", *[Fault(status=503)] * OUTAGE)
        body = await until_unready(http, bot)
        gauge = await slack_gauge(http, bot)
        fake.faults.clear()  # Slack answers again
        await wait_until_healthy(http, f"{bot.operator}/readyz")
        back = await slack_gauge(http, bot)
    logged = bot.log.read_text()
    assert body == {"status": "unhealthy", "redis": "ok", "platforms": {"slack": "disconnected"}}
    assert (gauge, back) == (0, 1)
    assert logged.count("Slack can't be reached (http_503): not ready until it answers") == 1
    assert logged.count("Slack answers again") <= 1  # info: below the process's WARNING level
