"""Fixtures: a fake Discord on loopback, and the real bot client connected to it.

The Redis fixtures (`redis_url`, `redis`, `store`) come from tests/e2e/conftest.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator

import discord
import pytest

from adapters.discord import ClientOptions, ShutboxClient, point_at
from core.game.dice import SeededDice
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import TOKEN, FakeDiscord

SEED = 11


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord; discord.py's REST base and gateway point at it for the test."""
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with FakeDiscord() as server:
        point_at(server.api_base, server.gateway_url)
        yield server
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


@pytest.fixture
def manager(store: RedisStore) -> GameManager:
    """A manager on the test database with seeded dice, so games play the same every run."""
    return GameManager(store, dice=SeededDice(SEED))


@contextlib.asynccontextmanager
async def running(
    fake: FakeDiscord, manager: GameManager, options: ClientOptions | None = None
) -> AsyncIterator[ShutboxClient]:
    """The bot connected to the fake (commands synced, gateway identified) until the block ends."""
    shards = len(options.shard_ids or ()) if options is not None else 0
    fast = {"guild_ready_timeout": 0.05, "identify_pause": 0.0}
    manager.pictures.add("discord")  # as the bot's bootstrap does (bot/commands/discord.py)
    client = ShutboxClient(manager, dataclasses.replace(options or ClientOptions(), **fast))
    identified = fake.identified()
    task = asyncio.create_task(client.start(TOKEN))
    try:
        await fake.wait_ready(identified + (shards or 1))
        yield client
    finally:
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)


@pytest.fixture
async def bot(fake: FakeDiscord, manager: GameManager) -> AsyncIterator[ShutboxClient]:
    async with running(fake, manager) as client:
        yield client
