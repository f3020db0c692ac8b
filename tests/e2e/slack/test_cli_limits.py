"""Black-box: two `shutbox slack` processes on one Redis share each member's rate limit, and an
admin's actions reach the audit log that `shutbox audit` lists (issue 23)."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from redis.asyncio import Redis

from tests.e2e.slack.driver import Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack
from tests.e2e.slack.test_cli import (
    STOP_SECONDS,
    counter_total,
    free_port,
    slack_env,
    wait_until_healthy,
)

LIMIT = "10/30"
TOO_FAST = "You're going a bit fast; try again in "


@pytest.fixture
async def two_apps(
    fake: FakeSlack, redis_url: str, tmp_path: Path, redis: Redis
) -> AsyncIterator[list[tuple[str, str]]]:
    """Two processes (app URL, health URL) with `SHUTBOX_RATE_LIMIT=10/30`."""
    processes, served = [], []
    for n in range(2):
        port, health = free_port(), free_port()
        env = slack_env(fake, redis_url, tmp_path / f"data{n}", health)
        env["SHUTBOX_RATE_LIMIT"] = LIMIT
        log = (tmp_path / f"slack{n}.log").open("wb")
        processes.append(await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "slack", "--port", str(port), "--host", "127.0.0.1",
            cwd=tmp_path, env=env, stdout=log, stderr=log,
        ))  # fmt: skip
        served.append((f"http://127.0.0.1:{port}", f"http://127.0.0.1:{health}"))
    try:
        async with aiohttp.ClientSession() as http:
            for _, health_url in served:
                await wait_until_healthy(http, f"{health_url}/healthz")
        yield served
    finally:
        for process in processes:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(process.wait(), STOP_SECONDS) == 0


async def test_two_processes_share_one_count_per_member(
    two_apps: list[tuple[str, str]], fake: FakeSlack
) -> None:
    """Ann's 20 commands alternate between the processes: 10 answered, 10 refused with the
    line; Bob, meanwhile, is answered; each process counts what it refused."""
    async with aiohttp.ClientSession() as http:
        drivers = [Driver(http, f"{url}/slack/events", fake) for url, _ in two_apps]
        answers = [await drivers[n % 2].say("UANN", "balance") for n in range(20)]
        assert answers[:10] == ["You have 100 chips."] * 10
        assert all(a.startswith(TOO_FAST) and a.endswith(" s.") for a in answers[10:])
        assert await drivers[1].say("UBOB", "balance") == "You have 100 chips."
        counted = [
            await counter_total(http, health, "shutbox_rate_limited") for _, health in two_apps
        ]
    assert counted == [5, 5]


async def test_an_admins_change_is_listed_by_shutbox_audit(
    two_apps: list[tuple[str, str]], fake: FakeSlack, redis_url: str, tmp_path: Path
) -> None:
    """Ann's `config style=text` through one process; `shutbox audit` in a third lists it."""
    async with aiohttp.ClientSession() as http:
        slack = Driver(http, f"{two_apps[0][0]}/slack/events", fake)
        assert (await slack.say("UANN", "config style=text")).startswith("Saved.")
    env = slack_env(fake, redis_url, tmp_path / "tool", free_port())
    listing = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "audit", "--server", f"slack:{TEAM}", cwd=tmp_path,
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(listing.communicate(), STOP_SECONDS)
    assert (listing.returncode, err) == (0, b"")
    (line,) = out.decode().splitlines()
    assert line.endswith("  config  by UANN (Ann)  style=image→text")
