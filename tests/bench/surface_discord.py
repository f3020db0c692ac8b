"""`bench_surface` on Discord: the real `shutbox discord` process, or a bare app, against the
project's fake Discord. Over the gateway the fake sends INTERACTION_CREATE events to it (the
bare app: a discord.py bot); over HTTP (DISCORD_MODE=http) it POSTs them, signed, to its public
listener (the bare app: aiohttp and PyNaCl, tests/bench/bare_discord_http.py)."""

from __future__ import annotations

import asyncio
import copy
import os
import sys
import time
from pathlib import Path

import redis

from tests.bench.surface_measure import Run, free_port, measured, stop
from tests.e2e.discord.fake_discord import TOKEN, FakeDiscord, Sent, playing
from tests.e2e.discord.payloads import CHANNEL_ID, GUILD_ID, Json, User

ROOT = Path(__file__).resolve().parents[2]
MAX_CLICKS = 200
DEFERRED_UPDATE = 6  # a click answered "later": the message is edited by the webhook
ANSWER_SECONDS = 10.0


INTERACTIONS_PATH = "/discord/interactions"


def command(bare: bool, fake: FakeDiscord, port: int) -> list[str]:
    if bare and fake.mode == "http":
        return [sys.executable, "-m", "tests.bench.bare_discord_http", "--port", str(port),
                "--public-key", fake.signer.public_key]  # fmt: skip
    if bare:
        return [sys.executable, "-m", "tests.bench.bare_discord", "--api-base", fake.api_base,
                "--gateway", fake.gateway_url, "--token", TOKEN]  # fmt: skip
    return [sys.executable, "-m", "bot.cli", "discord"]


def environment(fake: FakeDiscord, redis_url: str, data_dir: Path, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SHUTBOX_"))}
    # Boards as pictures by link, as a production bot shows them: the game message carries the
    # picture's URL (nobody fetches it here), never an upload.
    env |= {"SHUTBOX_PUBLIC_HOST": "127.0.0.1", "SHUTBOX_PUBLIC_PORT": str(port),
            "SHUTBOX_PUBLIC_URL": f"http://127.0.0.1:{port}",
            "SHUTBOX_IMAGE_SECRET": "bench"}  # fmt: skip
    if fake.mode == "http":  # the fake POSTs to the public listener
        env |= {"DISCORD_MODE": "http", "DISCORD_PUBLIC_KEY": fake.signer.public_key}
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


def shown(fake: FakeDiscord, opened: Sent) -> str | None:
    """The game's first button once its message shows (over HTTP a new game message is
    deferred, then written by the webhook)."""
    if opened.original is None:
        return None
    return next_button(fake.messages[opened.original])


async def answered(fake: FakeDiscord, sent: Sent, before: Json) -> None:
    """Until the click is answered and, where the answer was a deferral, the message edited."""

    def done() -> bool:
        deferred = sent.answer_type == DEFERRED_UPDATE
        return sent.answer is not None and not (deferred and fake.messages[game] == before)

    game = int(before["id"])
    await fake.until(done, ANSWER_SECONDS)


async def play_one(fake: FakeDiscord, i: int, run: Run | None) -> None:
    user = User(1_300_000_000_000_000_000 + i, f"B{i:04d}")
    opened = await fake.command(user, "solo", channel_id=CHANNEL_ID + 1000 + i)
    await fake.until(lambda: shown(fake, opened) is not None, ANSWER_SECONDS)
    game = opened.original
    assert game is not None
    for _ in range(MAX_CLICKS):
        button = next_button(fake.messages[game])
        if button is None:
            return
        before, started = copy.deepcopy(fake.messages[game]), time.perf_counter()
        await answered(fake, await fake.click(user, game, button), before)
        if run is not None:
            run.latencies.append(time.perf_counter() - started)
    raise AssertionError(f"game {i} did not end")


async def bench_discord(
    bare: bool, games: int, in_flight: int, redis_url: str, workdir: Path, mode: str = "gateway"
) -> Run:
    """Start the bot against a fresh fake, play one game to warm it up, then measure."""
    async with FakeDiscord(mode) as fake:
        port = free_port()
        fake.endpoint = f"http://127.0.0.1:{port}{INTERACTIONS_PATH}"
        log = (workdir / f"discord-{mode}-{'bare' if bare else 'ours'}.log").open("wb")
        process = await asyncio.create_subprocess_exec(
            *command(bare, fake, port), cwd=workdir, stdout=log, stderr=log,
            env=environment(fake, redis_url, workdir / "data", port),
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


async def bench_discord_http(
    bare: bool, games: int, in_flight: int, redis_url: str, workdir: Path
) -> Run:
    """`bench_discord` over HTTP interactions (DISCORD_MODE=http)."""
    return await bench_discord(bare, games, in_flight, redis_url, workdir, "http")
