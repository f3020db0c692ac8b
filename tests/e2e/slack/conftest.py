"""Slack end-to-end fixtures: a fake Slack, the real app served on 127.0.0.1, and a driver."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from redis.asyncio import Redis

from adapters.slack.app import SlackBot, SlackConfig, build_app
from adapters.slack.server import serving_http
from core.game.dice import DiceSource, SeededDice
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.slack.driver import SECRET, Driver
from tests.e2e.slack.fake_slack import FakeSlack

BOT_TOKEN = "xoxb-test"


def slack_user(name: str, *, admin: bool = False) -> dict[str, Any]:
    """A users.info `user` object."""
    return {"id": f"U{name.upper()}", "name": name.lower(), "real_name": name,
            "is_admin": admin, "is_owner": False,
            "profile": {"display_name": name, "real_name": name}}  # fmt: skip


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlack]:
    """The fake Web API, with Ann (a workspace admin), Bob, Cid and Dan."""
    users = {f"U{n.upper()}": slack_user(n, admin=n == "Ann") for n in ("Ann", "Bob", "Cid", "Dan")}
    slack = FakeSlack(users=users)
    await slack.start()
    yield slack
    await slack.close()


@pytest.fixture
def dice() -> DiceSource:
    return SeededDice(7)


@pytest.fixture
def manager(redis: Redis, dice: DiceSource) -> GameManager:
    return GameManager(RedisStore(redis), dice=dice)


@pytest.fixture
def config(fake: FakeSlack) -> SlackConfig:
    return SlackConfig(signing_secret=SECRET, bot_token=BOT_TOKEN, api_url=fake.api_url)


@pytest.fixture
def bot(manager: GameManager, config: SlackConfig, redis: Redis) -> SlackBot:
    """The Slack app in single-workspace mode, around a manager with seeded dice."""
    if config.pictures is not None:  # as the bot's bootstrap does (bot/commands/slack.py)
        manager.pictures.add("slack")
    return build_app(manager, config, redis)


@pytest.fixture
async def app_url(bot: SlackBot) -> AsyncIterator[str]:
    """The app listening on a free port of 127.0.0.1; its events URL."""
    async with serving_http(bot, "127.0.0.1", 0) as port:
        yield f"http://127.0.0.1:{port}/slack/events"


@pytest.fixture
async def slack(app_url: str, fake: FakeSlack) -> AsyncIterator[Driver]:
    async with aiohttp.ClientSession() as session:
        yield Driver(session, app_url, fake)
