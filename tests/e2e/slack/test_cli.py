"""`shutbox slack --port P` serves Slack's signed requests and talks to SLACK_API_URL (SPEC 8)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio import Redis

from tests.e2e.slack.driver import CHANNEL, SECRET, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message
from tests.e2e.slack.test_match import first_move

START_SECONDS = 20.0
STOP_SECONDS = 10.0
MAX_CLICKS = 100


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def slack_env(fake: FakeSlack, redis_url: str, data_dir: Path, health: int) -> dict[str, str]:
    """The process environment: one workspace's tokens, the fake Web API, the test Redis."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "SHUTBOX_"))}
    return env | {
        "SLACK_BOT_TOKEN": "xoxb-cli", "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": fake.api_url, "REDIS_URL": redis_url, "SHUTBOX_DATA_DIR": str(data_dir),
        "SHUTBOX_LOG_LEVEL": "WARNING", "SHUTBOX_HEALTH_PORT": str(health),
        "SHUTBOX_HEALTH_HOST": "127.0.0.1",
    }  # fmt: skip


async def wait_until_healthy(http: aiohttp.ClientSession, url: str) -> None:
    async with asyncio.timeout(START_SECONDS):
        while True:
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(url) as response:
                    if response.status == 200:
                        return
            await asyncio.sleep(0.1)


async def counter_total(http: aiohttp.ClientSession, health: str, family: str) -> float:
    """The sum of a counter family's `_total` samples on a process's /metrics."""
    async with http.get(f"{health}/metrics") as response:
        text = await response.text()
    found = next(f for f in text_string_to_metric_families(text) if f.name == family)
    return sum(s.value for s in found.samples if s.name.endswith("_total"))


@dataclass(frozen=True)
class Served:
    url: str  # the Slack app
    health: str  # its probes and metrics
    log: Path


@pytest.fixture
async def served(
    fake: FakeSlack, redis_url: str, tmp_path: Path, redis: Redis
) -> AsyncIterator[Served]:
    """`python -m bot.cli slack --port P` in a subprocess, ready once its health check says the
    Slack platform is connected; stopped with SIGTERM afterwards."""
    port, health = free_port(), free_port()
    log = (tmp_path / "slack.log").open("wb")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "slack", "--port", str(port), "--host", "127.0.0.1",
        cwd=tmp_path, env=slack_env(fake, redis_url, tmp_path / "data", health),
        stdout=log, stderr=log,
    )  # fmt: skip
    try:
        async with aiohttp.ClientSession() as http:
            await wait_until_healthy(http, f"http://127.0.0.1:{health}/healthz")
        yield Served(
            f"http://127.0.0.1:{port}", f"http://127.0.0.1:{health}", tmp_path / "slack.log"
        )
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(process.wait(), STOP_SECONDS)
        log.close()
        assert code == 0, (tmp_path / "slack.log").read_text()


async def test_the_cli_plays_a_solo_game_from_signed_requests(
    served: Served, fake: FakeSlack
) -> None:
    """Signed `/shutbox solo` and button clicks reach the process, which posts and edits the
    game message through the fake Web API with its bot token until the game is over."""
    async with aiohttp.ClientSession() as http:
        slack = Driver(http, f"{served.url}/slack/events", fake)
        assert (await slack.command("UANN", "solo")).status == 200
        found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
        game = found[0]
        for _ in range(MAX_CLICKS):
            if not game.playing:
                break
            await slack.press("UANN", game, first_move(game))
    assert "🏁 Ann finished with a total of" in game.body  # solo: a total, nobody to beat
    assert fake.calls[0].method == "auth.test"
    assert {call.token for call in fake.calls} == {"xoxb-cli"}


async def test_every_acknowledgement_is_timed_and_bolt_does_not_warn(
    served: Served, fake: FakeSlack
) -> None:
    """Each signed request lands in shutbox_slack_ack_seconds; the start logs no bolt warning
    about a token going unused (the process runs at log level WARNING)."""
    async with aiohttp.ClientSession() as http:
        slack = Driver(http, f"{served.url}/slack/events", fake)
        for _ in range(3):
            assert (await slack.command("UANN", "balance")).status == 200
        async with http.get(f"{served.health}/metrics") as response:
            text = await response.text()
    acks = next(
        f for f in text_string_to_metric_families(text) if f.name == "shutbox_slack_ack_seconds"
    )
    count = next(s.value for s in acks.samples if s.name.endswith("_count"))
    assert count == 3
    assert "will be unused" not in served.log.read_text()


async def test_the_cli_refuses_to_start_without_a_token(tmp_path: Path) -> None:
    """No Slack token: `shutbox slack` names the missing setting and exits 2."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "slack", cwd=tmp_path, env=env,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(process.communicate(), STOP_SECONDS)
    assert process.returncode == 2
    assert b"SLACK_SIGNING_SECRET" in err
