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
import pytest
from redis.asyncio import Redis

from adapters.discord.http.endpoint import INTERACTIONS_PATH
from tests.e2e.discord.conftest import PUBLIC_URL
from tests.e2e.discord.fake_discord import TOKEN, FakeDiscord, playing, text_of
from tests.e2e.discord.payloads import GUILD_ID
from tests.e2e.discord.players import ANN
from tests.e2e.slack.test_cli import free_port

START_SECONDS = 20.0
STOP_SECONDS = 10.0
MAX_CLICKS = 100


def bot_environment(
    fake: FakeDiscord, redis_url: str, data_dir: Path, health_port: int
) -> dict[str, str]:
    """The settings of a bot on the fake; over HTTP, the fake POSTs to its public listener."""
    environment = {
        **os.environ, "DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url, "DISCORD_DEV_GUILD": str(GUILD_ID),
        "REDIS_URL": redis_url, "SHUTBOX_DATA_DIR": str(data_dir), "SHUTBOX_LOG_LEVEL": "INFO",
        "SHUTBOX_HEALTH_PORT": str(health_port),  # not 8080: other processes may hold it
    }  # fmt: skip
    if fake.mode == "http":  # Discord's POSTs go to the public listener, never the operator's
        public_port = free_port()
        fake.endpoint = f"http://127.0.0.1:{public_port}{INTERACTIONS_PATH}"
        environment |= {
            "SHUTBOX_PUBLIC_HOST": "127.0.0.1", "SHUTBOX_PUBLIC_PORT": str(public_port),
            "DISCORD_MODE": "http", "DISCORD_PUBLIC_KEY": fake.signer.public_key,
            "SHUTBOX_PUBLIC_URL": PUBLIC_URL, "SHUTBOX_IMAGE_SECRET": "picture-key",
        }  # fmt: skip
    return environment


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


@pytest.mark.gateway_only
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


async def test_shutbox_discord_over_http_identifies_once_and_plays_a_game(
    redis: Redis, redis_url: str, tmp_path: Path, unused_tcp_port: int
) -> None:
    """DISCORD_MODE=http: the process registers `/shutbox`, connects to the gateway once (as
    Discord asks before a bot posts) and marks that in Redis, answers the PING on its public
    listener, plays a solo game with every click answered in the response (type 7) and no call
    to Discord but the summary's post, is ready, and stops cleanly on SIGTERM."""
    from tests.e2e.discord.conftest import faked

    async with faked("http") as fake, bot_process(
        fake, redis_url, tmp_path, unused_tcp_port
    ) as process:
        try:
            await fake.wait_ready(within=START_SECONDS)
        except TimeoutError:
            raise AssertionError((tmp_path / "bot.log").read_text()) from None
        assert [command["name"] for command in fake.registered[str(GUILD_ID)]] == ["shutbox"]
        for _ in range(int(START_SECONDS / 0.05)):  # in the background, after the PONG
            if await redis.keys("stb:discord:identified:*"):
                break
            await asyncio.sleep(0.05)
        assert await redis.keys("stb:discord:identified:*")
        assert fake.gateway_paths == ["/gateway"] and fake.identified() == 0  # once, closed

        game = (await fake.answered(await fake.command(ANN, "solo"))).original
        assert game is not None
        for _ in range(MAX_CLICKS):
            if not playing(fake.messages[game]):
                break
            before = len(fake.requests)
            click = await fake.answered(await fake.click(ANN, game))
            assert click.answer_type == 7
            if playing(fake.messages[game]):  # the last click also posts the round's summary
                assert fake.requests[before:] == []
        assert "game over" in text_of(fake.messages[game])
        async with aiohttp.ClientSession() as http:
            ready = f"http://127.0.0.1:{unused_tcp_port}/readyz"
            async with http.get(ready) as answer:
                assert answer.status == 200

        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), STOP_SECONDS) == 0
