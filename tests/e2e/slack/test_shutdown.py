"""SIGTERM to a real `shutbox slack` process while acknowledged work is still in flight.

`/shutbox solo` is acknowledged, its chat.postMessage is held by a slow Slack, and SIGTERM
arrives: readiness turns 503 at once, the listener closes after the drain, the process waits
for the post, attaches its id to the game, and exits 0, logging each step.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import aiohttp
from redis.asyncio import Redis

from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack
from tests.e2e.slack.test_cli import START_SECONDS, free_port, slack_env, wait_until_healthy

STOP_SECONDS = 20.0


def contents(log: Path) -> str:
    return log.read_text()


async def logged(log: Path, line: str) -> None:
    """Wait until the process has written `line` to its log (polled: another process
    writes the file)."""
    for _ in range(int(START_SECONDS / 0.05)):
        if line in contents(log):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{line!r} never logged:\n{contents(log)}")


async def test_sigterm_finishes_a_slow_post_then_exits_0(
    fake: FakeSlack, redis_url: str, redis: Redis, tmp_path: Path
) -> None:
    """The game message held by Slack is posted after SIGTERM, and the game knows it."""
    port, health = free_port(), free_port()
    log_path = tmp_path / "slack.log"
    env = slack_env(fake, redis_url, tmp_path / "data", health) | {
        "SHUTBOX_LOG_LEVEL": "INFO", "SHUTBOX_DRAIN_SECONDS": "0.3",
        "SHUTBOX_GRACE_SECONDS": "15",
    }  # fmt: skip
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "slack", "--port", str(port), "--host",
            "127.0.0.1", cwd=tmp_path, env=env, stdout=log, stderr=log,
        )  # fmt: skip
        try:
            async with aiohttp.ClientSession() as http:
                await wait_until_healthy(http, f"http://127.0.0.1:{health}/readyz")
                fake.hold("chat.postMessage")
                slack = Driver(http, f"http://127.0.0.1:{port}/slack/events", fake)
                assert (await slack.command("UANN", "solo")).status == 200
                await fake.wait_for(lambda: fake.holding)
                process.send_signal(signal.SIGTERM)
                await logged(log_path, "SIGTERM received")
                async with http.get(f"http://127.0.0.1:{health}/readyz") as response:
                    assert response.status == 503
                    assert (await response.json())["status"] == "stopping"
                await logged(log_path, "waiting up to 15 s for 1 request(s) in flight")
                await fake.release("chat.postMessage")
            code = await asyncio.wait_for(process.wait(), STOP_SECONDS)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    text = contents(log_path)
    assert code == 0, text
    [game] = fake.game_messages(CHANNEL)
    manager = GameManager(RedisStore(redis))
    record = await manager.current(Context(Scope("slack", TEAM), CHANNEL, "w", "W"))
    assert record is not None and record.message == game.ts, text
    steps = [
        "SIGTERM received: not ready any more; taking requests for 0.3 s (drain)",
        "drain over: listeners closing; finishing acknowledged work (grace 15 s)",
        "Slack listener closed",
        "waiting up to 15 s for 1 request(s) in flight: slack command solo",
        "1 request(s) finished in",
        "stopped",
    ]
    positions = [text.index(step) for step in steps]
    assert positions == sorted(positions), text


async def test_sighup_stops_cleanly_and_takes_the_embedded_redis_along(
    fake: FakeSlack, tmp_path: Path
) -> None:
    """SIGHUP (a closed terminal) is a graceful stop too: exit 0, and the embedded
    redis-server the process started is stopped, never left running on its own."""
    health = free_port()
    env = slack_env(fake, "", tmp_path / "data", health)
    env.pop("REDIS_URL")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "slack", "--port", str(free_port()), "--host",
        "127.0.0.1", cwd=tmp_path,
        env=env | {"SHUTBOX_DRAIN_SECONDS": "0", "SHUTBOX_LOG_LEVEL": "INFO"},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        async with aiohttp.ClientSession() as http:
            await wait_until_healthy(http, f"http://127.0.0.1:{health}/readyz")
        assert (tmp_path / "data" / "redis.sock").exists()
        process.send_signal(signal.SIGHUP)
        _, errors = await asyncio.wait_for(process.communicate(), STOP_SECONDS)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, errors.decode()
    assert "SIGHUP received" in errors.decode()
    assert not (tmp_path / "data" / "redis.sock").exists()
