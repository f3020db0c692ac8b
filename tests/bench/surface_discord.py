"""`bench_surface` on Discord: the real `shutbox discord` process, or the bare discord.py bot,
connected to the project's fake Discord, played through INTERACTION_CREATE events."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import redis

from tests.bench.surface_measure import Run, measured, stop
from tests.e2e.discord.fake_discord import TOKEN, FakeDiscord, Json, Sent, playing
from tests.e2e.discord.payloads import CHANNEL_ID, GUILD_ID, User

ROOT = Path(__file__).resolve().parents[2]
MAX_CLICKS = 200
ANSWER_SECONDS = 10.0


def command(bare: bool, fake: FakeDiscord) -> list[str]:
    if bare:
        return [sys.executable, "-m", "tests.bench.bare_discord", "--api-base", fake.api_base,
                "--gateway", fake.gateway_url, "--token", TOKEN]  # fmt: skip
    return [sys.executable, "-m", "bot.cli", "discord"]


def environment(fake: FakeDiscord, redis_url: str, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SHUTBOX_"))}
    return env | {
        "DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url, "DISCORD_DEV_GUILD": str(GUILD_ID),
        "REDIS_URL": redis_url, "SHUTBOX_DATA_DIR": str(data_dir),
        "SHUTBOX_LOG_LEVEL": "WARNING", "SHUTBOX_HEALTH_PORT": "0",
        "PYTHONPATH": str(ROOT),  # the bare bots live in tests/bench
    }  # fmt: skip


def next_button(message: Json) -> str | None:
    playable = [b for b in playing(message) if b.get("label") != "Hint"]
    return str(playable[0]["custom_id"]) if playable else None


async def answered(fake: FakeDiscord, sent: Sent) -> None:
    await fake.until(lambda: sent.answer is not None, ANSWER_SECONDS)


async def play_one(fake: FakeDiscord, i: int, run: Run | None) -> None:
    user = User(1_300_000_000_000_000_000 + i, f"B{i:04d}")
    opened = await fake.command(user, "solo", channel_id=CHANNEL_ID + 1000 + i)
    await fake.until(lambda: opened.original is not None, ANSWER_SECONDS)
    game = opened.original
    assert game is not None
    for _ in range(MAX_CLICKS):
        button = next_button(fake.messages[game])
        if button is None:
            return
        started = time.perf_counter()
        await answered(fake, await fake.click(user, game, button))
        if run is not None:
            run.latencies.append(time.perf_counter() - started)
    raise AssertionError(f"game {i} did not end")


async def bench_discord(
    bare: bool, games: int, in_flight: int, redis_url: str, workdir: Path
) -> Run:
    """Start the bot against a fresh fake, play one game to warm it up, then measure."""
    async with FakeDiscord() as fake:
        log = (workdir / f"discord-{'bare' if bare else 'ours'}.log").open("wb")
        process = await asyncio.create_subprocess_exec(
            *command(bare, fake), cwd=workdir, stdout=log, stderr=log,
            env=environment(fake, redis_url, workdir / "data"),
        )  # fmt: skip
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            await fake.wait_ready(within=30)
            await play_one(fake, games, None)

            async def play(i: int, run: Run) -> None:
                await play_one(fake, i, run)

            return await measured(process.pid, client, games, in_flight, play)
        finally:
            client.close()
            await stop(process)
            log.close()
