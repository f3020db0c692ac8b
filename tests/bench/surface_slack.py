"""`bench_surface` on Slack: the real `shutbox slack` process, or the bare bolt bot, behind the
project's fake Slack, played through signed requests as Slack sends them."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import aiohttp
import redis

from tests.bench.surface_measure import Run, free_port, measured, stop, wait_for_port
from tests.e2e.slack.conftest import slack_user
from tests.e2e.slack.driver import SECRET, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message

TOKEN = "xoxb-bench"
ROOT = Path(__file__).resolve().parents[2]
AFTER_MATCH = ("stb:review:", "stb:rematch:")  # a finished match's buttons
MAX_CLICKS = 200


def users(games: int) -> dict[str, dict[str, object]]:
    """One player per game (so no per-member limit is what is measured)."""
    return {f"UB{i:04d}": slack_user(f"B{i:04d}") for i in range(games + 1)}


def command(bare: bool, port: int, fake: FakeSlack) -> list[str]:
    if bare:
        return [sys.executable, "-m", "tests.bench.bare_slack", "--port", str(port), "--api-url",
                fake.api_url, "--signing-secret", SECRET, "--token", TOKEN]  # fmt: skip
    return [sys.executable, "-m", "bot.cli", "slack", "--port", str(port), "--host", "127.0.0.1"]


def environment(fake: FakeSlack, redis_url: str, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "SHUTBOX_"))}
    return env | {
        "SLACK_BOT_TOKEN": TOKEN, "SLACK_SIGNING_SECRET": SECRET, "SLACK_API_URL": fake.api_url,
        "REDIS_URL": redis_url, "SHUTBOX_DATA_DIR": str(data_dir), "SHUTBOX_LOG_LEVEL": "WARNING",
        "SHUTBOX_HEALTH_PORT": "0",
        "PYTHONPATH": str(ROOT),  # the bare bots live in tests/bench
    }  # fmt: skip


def next_button(message: Message) -> str | None:
    """The first button that plays (our Roll or first move; any of the bare bot's)."""
    playable = [b for b in message.buttons if b["text"]["text"] != "Hint"]
    playable = [b for b in playable if not str(b["action_id"]).startswith(AFTER_MATCH)]
    return str(playable[0]["action_id"]) if playable else None


async def play_one(slack: Driver, fake: FakeSlack, i: int, run: Run | None) -> None:
    user, channel = f"UB{i:04d}", f"CB{i:04d}"
    sent = await slack.command(user, "solo", channel=channel)
    assert sent.status == 200, sent
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(channel))
    game = found[0]
    for _ in range(MAX_CLICKS):
        button = next_button(game)
        if button is None:
            return
        started = time.perf_counter()
        await slack.press(user, game, button)
        if run is not None:
            run.latencies.append(time.perf_counter() - started)
    raise AssertionError(f"game {i} did not end: {game.body}")


async def bench_slack(bare: bool, games: int, in_flight: int, redis_url: str, workdir: Path) -> Run:
    """Start the bot, play one game to warm it up, then measure `games` games."""
    fake = FakeSlack(users=users(games))
    await fake.start()
    port = free_port()
    log = (workdir / f"slack-{'bare' if bare else 'ours'}.log").open("wb")
    process = await asyncio.create_subprocess_exec(
        *command(bare, port, fake), cwd=workdir, stdout=log, stderr=log,
        env=environment(fake, redis_url, workdir / "data"),
    )  # fmt: skip
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        await wait_for_port(port, process)
        async with aiohttp.ClientSession() as http:
            slack = Driver(http, f"http://127.0.0.1:{port}/slack/events", fake)
            await play_one(slack, fake, games, None)  # warm-up: solver tables, imports, pools

            async def play(i: int, run: Run) -> None:
                await play_one(slack, fake, i, run)

            return await measured(process.pid, client, games, in_flight, play)
    finally:
        client.close()
        await stop(process)
        log.close()
        await fake.close()
