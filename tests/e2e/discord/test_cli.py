"""`shutbox discord` as an operator runs it: a real process pointed at the fake Discord."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
from redis.asyncio import Redis

from tests.e2e.discord.fake_discord import TOKEN, FakeDiscord, playing, text_of
from tests.e2e.discord.payloads import GUILD_ID
from tests.e2e.discord.players import ANN

START_SECONDS = 20.0
STOP_SECONDS = 10.0
MAX_CLICKS = 100


def bot_environment(
    fake: FakeDiscord, redis_url: str, data_dir: Path, health_port: int
) -> dict[str, str]:
    return {
        **os.environ, "DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url, "DISCORD_DEV_GUILD": str(GUILD_ID),
        "REDIS_URL": redis_url, "SHUTBOX_DATA_DIR": str(data_dir), "SHUTBOX_LOG_LEVEL": "INFO",
        "SHUTBOX_HEALTH_PORT": str(health_port),  # not 8080: other processes may hold it
    }  # fmt: skip


@asynccontextmanager
async def bot_process(
    fake: FakeDiscord, redis_url: str, workdir: Path, health_port: int
) -> AsyncIterator[asyncio.subprocess.Process]:
    """`python -m bot.cli discord` until the block ends, then SIGTERM; its log goes to a file."""
    log = (workdir / "bot.log").open("wb")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "discord", cwd=workdir,  # no stray .env is read
        env=bot_environment(fake, redis_url, workdir / "data", health_port),
        stdout=log, stderr=log,
    )  # fmt: skip
    try:
        yield process
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                process.kill()
        log.close()


async def test_shutbox_discord_registers_its_commands_and_plays_a_game(
    fake: FakeDiscord, redis: Redis, redis_url: str, tmp_path: Path, unused_tcp_port: int
) -> None:
    """Started with DISCORD_API_BASE and DISCORD_GATEWAY_URL pointing at the fake, the process
    registers `/shutbox` in the dev guild, plays a solo game to the end, reports itself ready
    and connected with its gateway latency, and stops cleanly on SIGTERM."""
    async with bot_process(fake, redis_url, tmp_path, unused_tcp_port) as process:
        try:
            await fake.wait_ready(within=START_SECONDS)
        except TimeoutError:
            raise AssertionError((tmp_path / "bot.log").read_text()) from None
        assert [command["name"] for command in fake.registered[str(GUILD_ID)]] == ["shutbox"]
        assert fake.gateway_paths == ["/gateway"]  # DISCORD_GATEWAY_URL, not /gateway/bot's

        opened = await fake.answered(await fake.command(ANN, "solo"))
        game = opened.original
        assert game is not None
        for _ in range(MAX_CLICKS):
            if not playing(fake.messages[game]):
                break
            assert (await fake.answered(await fake.click(ANN, game))).answer_type == 7
        assert "game over" in text_of(fake.messages[game])
        health = f"http://127.0.0.1:{unused_tcp_port}"
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{health}/readyz") as ready:
                assert ready.status == 200
            async with http.get(f"{health}/metrics") as scrape:
                metrics = await scrape.text()
        assert 'shutbox_platform_connected{platform="discord"} 1.0' in metrics.splitlines()
        shard_0 = 'shutbox_discord_gateway_latency_seconds{shard="0"}'
        (gateway,) = [line for line in metrics.splitlines() if line.startswith(shard_0)]
        assert 0 <= float(gateway.split()[-1]) < START_SECONDS  # the first heartbeat's ack

        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), STOP_SECONDS) == 0
