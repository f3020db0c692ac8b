"""Deadlines pass in Slack too: the sweeper's auto moves and closed lobbies edit the message
(SPEC 3: nothing waits forever)."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from adapters.slack.app import SlackBot
from core.game.dice import DiceSource
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message

START = 1_800_000_000.0
clock = [START]


@pytest.fixture
def manager(redis: Redis, dice: DiceSource) -> GameManager:
    """A manager whose clock the test moves."""
    clock[0] = START
    return GameManager(RedisStore(redis), dice=dice, clock=lambda: clock[0])


async def game_message(slack: Driver, fake: FakeSlack, text: str, manager: GameManager) -> Message:
    """The posted game message, once the game knows it (the sweep edits the message it knows)."""
    await slack.command("UANN", text)
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    ctx = Context(Scope("slack", TEAM), CHANNEL, "UANN", "Ann")
    for _ in range(500):
        if await _attached(manager, ctx):
            break
        await asyncio.sleep(0.01)
    return found[0]


async def _attached(manager: GameManager, ctx: Context) -> bool:
    """Whether the game knows its message yet (the store has no event to wait on)."""
    record = await manager.current(ctx)
    return record is not None and bool(record.message)


async def sweep(manager: GameManager, bot: SlackBot, seconds: float) -> None:
    """Let `seconds` pass, then do what `shutbox slack`'s sweeper does every second."""
    clock[0] += seconds
    for scope, reply in await manager.sweep("slack"):
        await bot.on_timeout(scope, reply)


async def test_an_absent_player_is_moved_for(
    slack: Driver, fake: FakeSlack, manager: GameManager, bot: SlackBot
) -> None:
    """Ann lets her roll time out: the bot rolls for her, marked auto, on the same message."""
    game = await game_message(slack, fake, "solo timer=30", manager)
    await sweep(manager, bot, 31)
    assert game.updates == 1 and "(auto)" in game.body


async def test_a_lobby_nobody_starts_closes_after_ten_minutes(
    slack: Driver, fake: FakeSlack, manager: GameManager, bot: SlackBot
) -> None:
    """The lobby message says it closed, without buttons."""
    game = await game_message(slack, fake, "start", manager)
    await sweep(manager, bot, 601)
    assert "Nobody started the game, so the lobby closed." in game.body
    assert not game.buttons
