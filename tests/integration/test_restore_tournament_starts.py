"""A restored tournament still starts on time (real Redis): its start time's entry in the
shared index of starts is put back by the restore, whether or not the file holds that index,
so the sweep starts it at its time without waiting for a `tournament` command."""

from __future__ import annotations

from pathlib import Path

import pytest
from redis.asyncio import Redis

from core.game.tournament.values import Status
from core.service.features.tournaments.records import load
from core.service.model import keys
from core.store.redis_store import RedisStore
from tests.integration.cli import shutbox
from tests.integration.manager_helpers import SCOPE, Clock, manager
from tests.integration.test_tournament_starts import DUE, planned


@pytest.mark.parametrize("index_in_file", [True, False], ids=["whole-file", "index-missing"])
async def test_a_restored_tournament_starts_at_its_time(
    configured: str, redis: Redis, store: RedisStore, tmp_path: Path, index_in_file: bool
) -> None:
    clock = Clock()
    tournament = await planned(store, clock, 3)
    if not index_in_file:  # as a file that holds the servers and not the shared index
        await redis.delete(keys.TOURNAMENT_STARTS)
    path = tmp_path / "shutbox.backup"
    assert await shutbox("backup", str(path)) == 0
    await redis.flushdb()

    assert await shutbox("restore", str(path)) == 0

    assert await redis.zscore(keys.TOURNAMENT_STARTS, f"test:guild:{tournament}") == DUE
    assert await shutbox("ledger", "verify") == 0
    bot = manager(store, clock=clock)
    clock.now = DUE
    assert len(await bot.sweep()) == 1
    stored = await load(store, SCOPE, tournament)
    assert stored is not None and stored.tournament.status is Status.RUNNING
