"""Shards split over processes: each process runs its own shards on the one shared Redis."""

from __future__ import annotations

import pytest

from adapters.discord.interactions import PLATFORM
from bot.commands.discord import client_options
from bot.settings import DiscordSettings
from core.game.dice import SeededDice
from core.service.api.commands import Start
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.settings import StartOptions
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.conftest import SEED, running
from tests.e2e.discord.fake_discord import FakeDiscord
from tests.e2e.discord.payloads import GUILD_ID
from tests.e2e.discord.players import ANN
from tests.integration.manager_helpers import Clock

# Shards are gateway connections; over HTTP there are none.
pytestmark = pytest.mark.gateway_only

SHARDS = 2


async def test_two_processes_share_the_shards_and_one_registers_the_commands(
    fake: FakeDiscord, store: RedisStore
) -> None:
    """`--shard-count 2 --shard-ids 0` and `--shard-ids 1` identify as shard 0 and 1 of 2;
    only the first registers `/shutbox`; the guild's shard answers its interactions and
    shard 0 the direct messages."""
    settings = DiscordSettings()
    first, second = (client_options(settings, SHARDS, ids) for ids in ("0", "1"))
    async with (
        running(fake, GameManager(store, dice=SeededDice(SEED)), first),
        running(fake, GameManager(store, dice=SeededDice(SEED)), second),
    ):
        shards = sorted(c.shard for c in fake.connections if c.shard is not None)
        assert shards == [(0, SHARDS), (1, SHARDS)]
        assert len(fake.requests_to("PUT", "/commands")) == 1

        in_guild = await fake.answered(await fake.command(ANN, "balance"))
        in_dm = await fake.answered(await fake.command(ANN, "solo", direct=True))

    assert in_guild.shard == (GUILD_ID >> 22) % SHARDS == 1  # the second process
    assert in_guild.data["content"] == "You have 100 chips."
    assert in_dm.shard == 0 and in_dm.answer_type == 4 and not in_dm.ephemeral


async def test_each_process_sweeps_only_the_guilds_of_its_own_shards(
    fake: FakeDiscord, store: RedisStore
) -> None:
    """With the shards split over two processes, a guild's passed deadline is applied by the
    process that runs the guild's shard; the other one leaves it alone."""
    clock = Clock()
    settings = DiscordSettings()
    first, second = (client_options(settings, SHARDS, ids) for ids in ("0", "1"))
    managers = [GameManager(store, dice=SeededDice(SEED), clock=clock) for _ in range(2)]
    async with running(fake, managers[0], first) as one, running(fake, managers[1], second) as two:
        guild = Scope(PLATFORM, str(GUILD_ID))
        await managers[0].handle(Context(guild, "c1", "ann", "Ann"), Start(StartOptions()))
        clock.now += 600
        assert (one.owns(guild), two.owns(guild)) == (False, True)  # the guild is on shard 1
        assert await managers[0].sweep(PLATFORM, one.owns) == []
        [(swept, reply)] = await managers[1].sweep(PLATFORM, two.owns)
    assert swept == guild and reply.game is not None and reply.game.over
