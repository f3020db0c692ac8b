"""A `shutbox slack` process of a test's own: its Redis, its public and operator ports, its
settings; stopped with SIGTERM on the way out (exit code 0 checked)."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from tests.e2e.slack.driver import Driver
from tests.e2e.slack.fake_slack import FakeSlack
from tests.e2e.slack.test_cli import STOP_SECONDS, free_port, slack_env, wait_until_healthy


@dataclass(frozen=True)
class BotProcess:
    public: str  # the public listener: Slack's requests, pictures, pages
    operator: str  # the operator listener: probes, /metrics
    log: Path
    process: asyncio.subprocess.Process

    def driver(self, http: aiohttp.ClientSession, fake: FakeSlack) -> Driver:
        return Driver(http, f"{self.public}/slack/events", fake)


@asynccontextmanager
async def slack_process(
    fake: FakeSlack, redis_url: str, folder: Path, settings: Mapping[str, str] = {},
    ready: bool = True, code: int = 0,
) -> AsyncIterator[BotProcess]:  # fmt: skip
    """The process on free ports of 127.0.0.1 with `settings` added to its environment; with
    `ready`, yielded once /readyz says Redis and Slack are up; `code` is the exit code it must
    end with."""
    public, operator = free_port(), free_port()
    env = slack_env(fake, redis_url, folder / "data", operator) | {
        "SHUTBOX_PUBLIC_PORT": str(public), "SHUTBOX_PUBLIC_HOST": "127.0.0.1", **settings,
    }  # fmt: skip
    log_path = folder / "slack.log"
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "slack", cwd=folder, env=env, stdout=log, stderr=log
        )
        bot = BotProcess(f"http://127.0.0.1:{public}", f"http://127.0.0.1:{operator}",
                         log_path, process)  # fmt: skip
        try:
            if ready:
                async with aiohttp.ClientSession() as http:
                    await wait_until_healthy(http, f"{bot.operator}/readyz")
            yield bot
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            exit_code = await asyncio.wait_for(process.wait(), STOP_SECONDS + 20)
    assert exit_code == code, log_path.read_text()
