"""Black-box: a `shutbox slack` process whose redis-server dies in the middle of a click (frozen
with the command on its way, then SIGKILLed). The click is answered while Slack still waits,
with a line that is true: "nothing was changed" only when Redis, back again, holds no change;
else that it is not known yet, and the game message catches up once Redis is back."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import aiohttp
import redis.asyncio as aioredis

from core.text.i18n import t
from tests.e2e.slack.bot_process import slack_process
from tests.e2e.slack.driver import CHANNEL
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message
from tests.scale.servers import free_port, redis_server

SLACK_WAITS = 3.0  # seconds Slack gives an interaction
GAME = f"stb:{{slack:{TEAM}}}:game:{CHANNEL}"
DURABLE = ("--appendonly", "yes", "--appendfsync", "always")  # what it ran, it keeps
IN_FLIGHT = 0.3  # the click's command leaves for the frozen Redis meanwhile


async def stored_version(url: str) -> str | None:
    client = aioredis.from_url(url, decode_responses=True)
    try:
        version: str | None = await client.hget(GAME, "v")
        return version
    finally:
        await client.aclose()


async def test_a_click_whose_redis_dies_mid_command_is_answered_truly_in_time(
    fake: FakeSlack, tmp_path: Path
) -> None:
    port, data = free_port(), tmp_path / "redis"
    settings = {"SHUTBOX_RATE_LIMIT": "off", "SHUTBOX_GAME_RATE_LIMIT": "off"}  # the commit first
    with redis_server(data, port, extra=DURABLE) as server:
        async with slack_process(fake, server.url, tmp_path, settings) as bot, \
                aiohttp.ClientSession() as http:  # fmt: skip
            slack = bot.driver(http, fake)
            await slack.command("UANN", "solo")
            found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
            game = found[0]
            before = await stored_version(server.url)
            server.process.send_signal(signal.SIGSTOP)
            sent = await slack.click("UANN", game, game.button("Roll"))
            await asyncio.sleep(IN_FLIGHT)
            server.kill()
            reply = await fake.wait_for(lambda: fake.replies(sent.key), seconds=SLACK_WAITS)
            with redis_server(data, port, extra=DURABLE) as again:
                after = await stored_version(again.url)
    said = reply[0].text
    assert said in (t("en", "error.redis"), t("en", "outcome.unknown"))
    if said == t("en", "error.redis"):  # "Nothing was changed": Redis agrees
        assert after == before
