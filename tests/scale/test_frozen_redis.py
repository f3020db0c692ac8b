"""Redis frozen (SIGSTOP) for longer than the client's timeout while a click is on its way.

The commit was sent, so it may run when Redis wakes: the player is told what Redis says happened,
never "nothing changed" for a move that was applied, and the game never sticks.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from core.game.dice import SeededDice
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Table
from tests.integration.test_manager import _lobby
from tests.scale.servers import RedisProcess, free_port, redis_server

CLIENT_TIMEOUT = 0.3  # seconds; the freeze lasts several times this
APPLIED = "The game store was slow to answer, but your move was applied."


@pytest.fixture
def server(tmp_path: Path) -> AsyncIterator[RedisProcess]:
    with redis_server(tmp_path / "redis", free_port()) as process:
        yield process


@pytest.fixture
async def table(server: RedisProcess) -> AsyncIterator[Table]:
    client = aioredis.from_url(
        server.url, decode_responses=True, socket_timeout=CLIENT_TIMEOUT,
        socket_connect_timeout=CLIENT_TIMEOUT, retry=Retry(NoBackoff(), 0),
    )  # fmt: skip
    table = Table(GameManager(RedisStore(client), dice=SeededDice(5)))
    await _lobby(table, "Ann", "Bob")
    yield table
    await client.aclose()


async def stored_version(table: Table) -> int:
    stored = await table.manager.store.load(SCOPE, table.channel)
    assert stored is not None
    return stored.version


async def frozen_for(server: RedisProcess, seconds: float) -> None:
    server.process.send_signal(signal.SIGSTOP)
    try:
        await asyncio.sleep(seconds)
    finally:
        server.process.send_signal(signal.SIGCONT)


async def next_click_plays(table: Table) -> None:
    """Whoever is to act presses the first button of the game as shown: it plays."""
    player = await table.to_act()
    assert player is not None
    before = await stored_version(table)
    reply = await table.press(player)
    assert reply.private is None and reply.game is not None
    assert await stored_version(table) == before + 1


async def test_a_click_during_a_short_freeze_is_reported_as_redis_decided(
    server: RedisProcess, table: Table
) -> None:
    table.manager.resolve_pauses = (0.2,) * 15  # three seconds of asking
    table.manager.resolve_budget = 5.0
    before = await stored_version(table)

    click = asyncio.create_task(table.press("Ann", "Roll"))
    await frozen_for(server, 4 * CLIENT_TIMEOUT)
    reply = await click

    now = await stored_version(table)
    assert reply.private is not None
    if reply.private == APPLIED:
        assert now == before + 1 and reply.game is not None and reply.game.version == now
    else:
        assert "nothing was changed" in reply.private and now == before
    await asyncio.sleep(0.5)  # a late copy of the commit would land now: it must not
    assert await stored_version(table) == now
    await next_click_plays(table)


async def test_a_click_during_a_long_freeze_says_the_outcome_is_not_known_yet(
    server: RedisProcess, table: Table
) -> None:
    table.manager.resolve_pauses = (0.1, 0.1)
    before = await stored_version(table)

    click = asyncio.create_task(table.press("Ann", "Roll"))
    await frozen_for(server, 6 * CLIENT_TIMEOUT)
    reply = await click

    assert reply.private is not None and "not known yet" in reply.private
    [(_, shown)] = await table.manager.sweep()  # once Redis answers, the message catches up
    now = await stored_version(table)
    assert shown.game is not None and shown.game.version == now and now in (before, before + 1)
    table.last = shown
    await next_click_plays(table)
