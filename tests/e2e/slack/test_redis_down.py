"""A click while Redis refuses connections: answered at once, with no outcome lookup.

The commit could not even be sent (the connection was refused), so "nothing was changed" is
known without asking Redis anything; only a commit that may have reached Redis is looked up.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from adapters.slack.app import SlackConfig, build_app
from adapters.slack.server import serving_http
from bot.redis_server import client_options
from core.game.dice import SeededDice
from core.service.model.commit import Commit, CommitResult
from core.service.pipeline.manager import GameManager
from core.store.redis_store import OutcomeUnknown, RedisStore, StoreUnavailable
from tests.e2e.slack.driver import CHANNEL, SECRET, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message
from tests.integration.store.helpers import new_game
from tests.scale.servers import RedisProcess, free_port, redis_server

DOWN = (
    "The game store can’t be reached right now. Nothing was changed; please try again in a moment."
)


class LookupsCounted(RedisStore):
    """The real store, counting the outcome lookups of commits whose reply was lost."""

    lookups = 0

    async def resolve(self, commit: Commit) -> CommitResult:
        self.lookups += 1
        return await super().resolve(commit)


@pytest.fixture
def server(tmp_path: Path) -> AsyncIterator[RedisProcess]:
    with redis_server(tmp_path / "redis", free_port()) as started:
        yield started


@pytest.fixture
async def client(server: RedisProcess) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.from_url(server.url, **client_options())
    yield client
    await client.aclose()


@pytest.fixture
def store(client: aioredis.Redis) -> LookupsCounted:
    return LookupsCounted(client)


async def redis_goes_away(server: RedisProcess, client: aioredis.Redis) -> None:
    """Kill Redis, and let the client find out (as the sweep or a probe would within a
    second): its pooled connections are dropped, and new ones are refused."""
    server.kill()
    with pytest.raises(RedisConnectionError):
        await client.ping()


@pytest.fixture
async def slack(store: LookupsCounted, fake: FakeSlack) -> AsyncIterator[Driver]:
    config = SlackConfig(signing_secret=SECRET, bot_token="xoxb-test", api_url=fake.api_url)
    bot = build_app(GameManager(store, dice=SeededDice(7)), config)
    async with serving_http(bot, "127.0.0.1", 0) as port, aiohttp.ClientSession() as session:
        yield Driver(session, f"http://127.0.0.1:{port}/slack/events", fake)


async def test_a_click_with_redis_refusing_connections_says_nothing_changed(
    slack: Driver, fake: FakeSlack, server: RedisProcess, client: aioredis.Redis,
    store: LookupsCounted,
) -> None:  # fmt: skip
    """Redis is killed after the game opened; Roll: "nothing was changed", no lookup, and
    the game message is left as it was."""
    await slack.command("UANN", "solo")
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    game = found[0]
    await redis_goes_away(server, client)
    sent = await slack.click("UANN", game, game.button("Roll"))
    # The fake's wait is the safety net only; the assertion is on the path taken.
    reply = await fake.wait_for(lambda: fake.replies(sent.key), seconds=5.0)
    assert reply[0].text == DOWN
    assert store.lookups == 0
    assert game.updates == 0


async def test_a_commit_that_was_never_sent_is_not_of_unknown_outcome(
    store: LookupsCounted, server: RedisProcess, client: aioredis.Redis
) -> None:
    """At the store: a refused connection raises `StoreUnavailable`, not `OutcomeUnknown`."""
    await store.commit(new_game(request_id="before"))
    await redis_goes_away(server, client)
    with pytest.raises(StoreUnavailable) as raised:
        await store.commit(new_game(request_id="after", channel="c2"))
    assert not isinstance(raised.value, OutcomeUnknown)
