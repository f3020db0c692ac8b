"""Black-box: a `shutbox slack` process whose Redis holds one game it can't read goes on
timing out the workspace's other games; that channel answers one clear line, an admin's
`stop` clears it, and the process counts and logs it once (issue 31)."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio import Redis

from core.text.i18n import t
from tests.e2e.slack.driver import Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message
from tests.e2e.slack.test_cli import STOP_SECONDS, free_port, slack_env, wait_until_healthy

TIMER = 10  # the shortest turn timer there is: the process's own sweep, in real time
WAIT = TIMER + 20.0


async def unreadable_total(http: aiohttp.ClientSession, health: str) -> float:
    async with http.get(f"{health}/metrics") as response:
        text = await response.text()
    family = next(f for f in text_string_to_metric_families(text)
                  if f.name == "shutbox_unreadable_records")  # fmt: skip
    return sum(s.value for s in family.samples if s.name.endswith("_total"))


async def solo(slack: Driver, fake: FakeSlack, user: str, channel: str) -> Message:
    """A new solo game's message in `channel` (not one posted there before)."""
    before = fake.game_messages(channel)
    assert (await slack.command(user, f"solo timer={TIMER}", channel=channel)).status == 200
    found: list[Message] = await fake.wait_for(
        lambda: [m for m in fake.game_messages(channel) if m not in before]
    )
    return found[0]


async def test_a_game_that_cant_be_read_does_not_stop_another_games_timer(
    fake: FakeSlack, redis_url: str, tmp_path: Path, redis: Redis
) -> None:
    port, health = free_port(), free_port()
    log_path = tmp_path / "slack.log"
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "slack", "--port", str(port), "--host", "127.0.0.1",
            cwd=tmp_path, env=slack_env(fake, redis_url, tmp_path / "data", health),
            stdout=log, stderr=log,
        )  # fmt: skip
        try:
            async with aiohttp.ClientSession() as http:
                await wait_until_healthy(http, f"http://127.0.0.1:{health}/healthz")
                slack = Driver(http, f"http://127.0.0.1:{port}/slack/events", fake)
                bad = await solo(slack, fake, "UANN", "CBAD")
                good = await solo(slack, fake, "UBOB", "CGOOD")
                await redis.hset(f"stb:{{slack:{TEAM}}}:game:CBAD", "r", "garbage")

                # Both deadlines pass; the good game's timeout is played, on its message.
                await fake.wait_for(lambda: "(auto)" in good.body, seconds=WAIT)
                assert "(auto)" not in bad.body
                line = await slack.say("UCID", "join", channel="CBAD")
                assert line == t("en", "error.unreadable.game")
                assert await slack.say("UANN", "stop", channel="CBAD") == t("en", "stop.unreadable")
                assert not await redis.exists(f"stb:{{slack:{TEAM}}}:game:CBAD")
                again = await solo(slack, fake, "UANN", "CBAD")  # the channel plays again
                assert again is not bad and again.playing
                counted = await unreadable_total(http, f"http://127.0.0.1:{health}")
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(process.wait(), STOP_SECONDS)
    logged = log_path.read_text()
    assert code == 0, logged
    assert counted == 1
    assert logged.count("unreadable game record") == 1, logged
    assert "deadline sweep failed" not in logged and "Traceback" not in logged, logged
