"""`shutbox slack` checks its token at start-up: ready only once Slack accepted it.

A rejected token stops the process with one line (exit 2); a Slack that cannot be reached
keeps `/readyz` at 503 and is asked again with a growing pause, until it answers.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import aiohttp
from redis.asyncio import Redis

from tests.e2e.slack.fake_slack import FakeSlack, Fault
from tests.e2e.slack.test_cli import free_port, slack_env, wait_until_healthy

STOP_SECONDS = 30.0


async def start(
    fake: FakeSlack, redis_url: str, tmp_path: Path, health: int
) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "slack", "--port", str(free_port()), "--host",
        "127.0.0.1", cwd=tmp_path, env=slack_env(fake, redis_url, tmp_path / "data", health),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def test_a_rejected_token_stops_the_process_with_one_line(
    fake: FakeSlack, redis_url: str, redis: Redis, tmp_path: Path
) -> None:
    """auth.test says invalid_auth: one line on stderr naming the setting, exit 2."""
    fake.fail("auth.test", Fault(error="invalid_auth"))
    process = await start(fake, redis_url, tmp_path, free_port())
    _, errors = await asyncio.wait_for(process.communicate(), STOP_SECONDS)
    assert process.returncode == 2
    assert errors.decode().splitlines() == [
        "shutbox: Slack refused SLACK_BOT_TOKEN (invalid_auth): copy the Bot User OAuth Token again"
    ]


async def test_an_unreachable_slack_keeps_the_process_unready_until_it_answers(
    fake: FakeSlack, redis_url: str, redis: Redis, tmp_path: Path
) -> None:
    """auth.test fails (503, twice per attempt) for two attempts: /readyz says 503 with Slack
    still starting; once Slack answers the process turns ready."""
    fake.fail("auth.test", *[Fault(status=503)] * 4)
    health = free_port()
    process = await start(fake, redis_url, tmp_path, health)
    try:
        async with aiohttp.ClientSession() as http:
            await fake.wait_for(lambda: len(fake.called("auth.test")) >= 2)
            async with http.get(f"http://127.0.0.1:{health}/readyz") as response:
                assert response.status == 503
                assert (await response.json())["platforms"] == {"slack": "starting"}
            await wait_until_healthy(http, f"http://127.0.0.1:{health}/readyz")
        assert len(fake.called("auth.test")) >= 5  # two failed attempts (each retried once)
    finally:
        process.send_signal(signal.SIGTERM)
        _, errors = await asyncio.wait_for(process.communicate(), STOP_SECONDS)
    assert process.returncode == 0
    assert "Slack can't be reached (http_503); trying again in 1 s" in errors.decode()
