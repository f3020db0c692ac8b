"""`shutbox backup` and `restore` with Redis behind Sentinel (REDIS_SENTINELS): both find the
master as the bot does, and the restored data reaches the replica too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.cli import main
from bot.runtime import open_runtime
from core.game.dice import SeededDice
from tests.integration.test_backup import snapshot
from tests.scale.play import open_match, play_to_end, seats
from tests.scale.sentinels import point_at_sentinel, sentinel_setup, wait_for_replica


async def test_backup_and_restore_through_sentinel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Staked matches, backup through the sentinel, the master emptied, restore: the master and
    its replica hold what they held, the ledger verifies, the matches finish."""
    with sentinel_setup(tmp_path / "redis") as setup:
        point_at_sentinel(monkeypatch, setup, tmp_path)
        tables = seats(2, 1, platform="watched")
        master = aioredis.Redis(port=setup.master.port, decode_responses=True)
        replica = aioredis.Redis(port=setup.replica.port, decode_responses=True)
        async with open_runtime(None, tmp_path / "data", SeededDice(4)) as runtime:
            for seat in tables:
                await open_match(runtime.manager, seat)
            before = await snapshot(master)
            path = tmp_path / "sentinel.jsonl.gz"
            assert await asyncio.to_thread(main, ["backup", str(path)]) == 0
            assert ": 2 servers, " in capsys.readouterr().out
            await master.flushdb()
            assert await asyncio.to_thread(main, ["restore", str(path)]) == 0
            assert await snapshot(master) == before
            await asyncio.to_thread(wait_for_replica, setup)
            assert await snapshot(replica) == before
            assert await asyncio.to_thread(main, ["ledger", "verify"]) == 0
            for seat in tables:
                assert await play_to_end(runtime.manager, seat) > 0
        assert await asyncio.to_thread(main, ["ledger", "verify"]) == 0
        await master.aclose()
        await replica.aclose()
