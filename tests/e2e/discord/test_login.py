"""Logging in: a Discord that cannot be reached is tried again for as long as it takes (or a
given number of times), one line each; a rejected token is one clear final line."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

import discord
import pytest

from adapters.discord import ClientOptions, DiscordUnreachable, ShutboxClient, point_at
from core.service.pipeline.manager import GameManager
from tests.e2e.discord.fake_discord import FakeDiscord

QUICK = ClientOptions(login_attempts=3, login_pause=0.01)


@pytest.fixture
def nowhere() -> object:
    """discord.py pointed at a port where nothing listens (no network), restored afterwards."""
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    point_at("http://127.0.0.1:1/api/v10", "ws://127.0.0.1:1/")
    yield
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


async def test_an_unreachable_discord_is_retried_with_one_line_each(
    nowhere: object, manager: GameManager, caplog: pytest.LogCaptureFixture
) -> None:
    """Three attempts: two warning lines ("trying again in ..."), then one final error."""
    client = ShutboxClient(manager, QUICK)
    with caplog.at_level(logging.INFO), pytest.raises(DiscordUnreachable) as gave_up:
        await client.log_in("abc")
    await client.close()
    ours = ("discord.client", "adapters.discord.client")
    lines = [r.getMessage() for r in caplog.records if r.name in ours]
    assert lines[0] == "logging in using static token"  # discord.py's, once
    retries = lines[1:]
    assert len(retries) == 2
    assert all(line.startswith("Discord can't be reached (") for line in retries)
    assert "trying again in 0.01 s (attempt 2 of 3)" in retries[0]
    assert "trying again in 0.02 s (attempt 3 of 3)" in retries[1]
    assert str(gave_up.value).endswith("gave up after 3 attempts")
    assert "\n" not in str(gave_up.value)
    assert not [r for r in caplog.records if r.exc_info and r.name in ours]


async def test_by_default_an_unreachable_discord_is_tried_until_it_answers(
    nowhere: object, manager: GameManager, caplog: pytest.LogCaptureFixture
) -> None:
    """No number of attempts: the process keeps trying (its readiness stays 503 meanwhile)
    and never gives up by itself; each retry is one line."""
    client = ShutboxClient(manager, ClientOptions(login_pause=0.01))
    retries: list[str] = []
    with caplog.at_level(logging.INFO):
        trying = asyncio.create_task(client.log_in("abc"))
        while len(retries) < 4 and not trying.done():
            await asyncio.sleep(0.01)
            retries = [r.getMessage() for r in caplog.records
                       if r.getMessage().startswith("Discord can't be reached (")]  # fmt: skip
        assert not trying.done()  # still trying after four retries
        trying.cancel()
    await client.close()
    assert "(attempt 5)" in retries[3] and " of " not in retries[3]


async def test_a_rejected_token_ends_the_process_with_one_line(
    fake: FakeDiscord, redis_url: str, tmp_path: Path
) -> None:
    """`DISCORD_TOKEN=abc shutbox discord` against a Discord that answers 401: exit 2 (a
    setting to fix) and the last line says Discord refused the token; no traceback."""
    env = {**os.environ, "DISCORD_TOKEN": "abc", "DISCORD_API_BASE": fake.api_base,
           "DISCORD_GATEWAY_URL": fake.gateway_url, "REDIS_URL": redis_url,
           "SHUTBOX_DATA_DIR": str(tmp_path / "data"), "SHUTBOX_HEALTH_PORT": "0"}  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "discord", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    text = err.decode()
    assert "Traceback" not in text
    assert text.splitlines()[-1] == (
        "shutbox: Discord refused DISCORD_TOKEN: Improper token has been passed."
    )


async def test_sigterm_while_discord_cannot_be_reached_stops_after_the_drain(
    redis_url: str, tmp_path: Path
) -> None:
    """`shutbox discord` still retrying its login stops on SIGTERM once the drain is over,
    exit 0: the retry loop's pause does not hold the process (a grace period of minutes
    would otherwise pass first, and "not stopped within" would be logged)."""
    log_path = tmp_path / "bot.log"
    env = {**os.environ, "DISCORD_TOKEN": "abc", "DISCORD_API_BASE": "http://127.0.0.1:1/api/v10",
           "DISCORD_GATEWAY_URL": "ws://127.0.0.1:1/", "REDIS_URL": redis_url,
           "SHUTBOX_DATA_DIR": str(tmp_path / "data"), "SHUTBOX_HEALTH_PORT": "0",
           "SHUTBOX_DRAIN_SECONDS": "0.5", "SHUTBOX_GRACE_SECONDS": "600"}  # fmt: skip
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "discord", cwd=tmp_path, env=env,
            stdout=log, stderr=log,
        )  # fmt: skip
        try:
            for _ in range(600):
                if "trying again in" in log_path.read_text():
                    break
                await asyncio.sleep(0.1)
            process.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(process.wait(), 60)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    text = log_path.read_text()
    assert code == 0, text
    assert "drain over" in text and "Discord login given up: the process is stopping" in text
    assert "not stopped within" not in text and "Traceback" not in text
