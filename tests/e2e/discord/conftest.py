"""Fixtures: a fake Discord on loopback, and the real bot client connected to it.

Every test that uses the fake runs twice: with interactions over the gateway, and over HTTP
(signed POSTs to the bot's endpoint, board pictures by link since the bot then has a public
address). A test about the gateway itself is marked `gateway_only`.

The Redis fixtures (`redis_url`, `redis`, `store`) come from tests/e2e/conftest.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator

import discord
import pytest
from aiohttp import web

from adapters.discord import ClientOptions, ShutboxClient, point_at
from adapters.discord.http.endpoint import INTERACTIONS_PATH, interactions_handler
from adapters.discord.http.signature import Signatures, verify_key
from adapters.http import LateRoutes, serving_app
from adapters.pictures import PictureLinks
from core.game.dice import SeededDice
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import TOKEN, FakeDiscord

SEED = 11
MODES = ("gateway", "http")
PUBLIC_URL = "https://shutbox.example.org"
PICTURES = PictureLinks(PUBLIC_URL, b"k" * 32)  # the bot's signed picture links over HTTP


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Each test on the fake in both modes, unless it is about the gateway itself."""
    if "discord_mode" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("gateway_only") is not None
        metafunc.parametrize("discord_mode", MODES[:1] if only else MODES)


@contextlib.asynccontextmanager
async def faked(mode: str) -> AsyncIterator[FakeDiscord]:
    """A fake Discord; discord.py's REST base and gateway point at it until the block ends."""
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with FakeDiscord(mode) as server:
        point_at(server.api_base, server.gateway_url)
        yield server
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


@pytest.fixture
async def fake(discord_mode: str) -> AsyncIterator[FakeDiscord]:
    """A fake Discord in each mode (see the module)."""
    async with faked(discord_mode) as server:
        yield server
        assert server.problems == []  # every HTTP answer of a shape Discord takes


@pytest.fixture
def manager(store: RedisStore) -> GameManager:
    """A manager on the test database with seeded dice, so games play the same every run."""
    return GameManager(store, dice=SeededDice(SEED))


@contextlib.asynccontextmanager
async def running(
    fake: FakeDiscord, manager: GameManager, options: ClientOptions | None = None
) -> AsyncIterator[ShutboxClient]:
    """The bot connected to the fake (commands synced, gateway identified, or its endpoint
    listening) until the block ends."""
    if fake.mode == "http":
        async with over_http(fake, manager, options) as client:
            yield client
        return
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


@contextlib.asynccontextmanager
async def over_http(
    fake: FakeDiscord, manager: GameManager, options: ClientOptions | None = None,
    pictures: PictureLinks | None = PICTURES,
) -> AsyncIterator[ShutboxClient]:  # fmt: skip
    """The bot logged in (commands synced) and taking the fake's POSTs on its endpoint."""
    manager.pictures.add("discord")
    chosen = dataclasses.replace(options or ClientOptions(), gateway=False, pictures=pictures)
    client = ShutboxClient(manager, chosen)
    await client.login(TOKEN)
    app, routes = web.Application(), LateRoutes()
    routes.mount(app)
    signatures = Signatures(verify_key(fake.signer.public_key))
    routes.bind(INTERACTIONS_PATH, interactions_handler(signatures, client.receive))
    try:
        async with serving_app(app, "127.0.0.1", 0) as port:
            fake.endpoint = f"http://127.0.0.1:{port}{INTERACTIONS_PATH}"
            yield client
    finally:
        await client.close()


@pytest.fixture
async def bot(fake: FakeDiscord, manager: GameManager) -> AsyncIterator[ShutboxClient]:
    async with running(fake, manager) as client:
        yield client
