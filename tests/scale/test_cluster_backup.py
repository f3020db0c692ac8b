"""`shutbox backup` and `restore` against a real three-master Redis Cluster (REDIS_CLUSTER=true):
servers spread over every master, each read in one script on its own node."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from bot.cli import main
from core.game.dice import SeededDice
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.integration.test_backup import snapshot
from tests.scale.play import open_match, play_to_end, seats
from tests.scale.servers import RedisProcess


async def every_node(nodes: list[RedisProcess]) -> list[dict[str, Any]]:
    """Each master's keys, as `snapshot` reads them."""
    found = []
    for node in nodes:
        direct = aioredis.Redis(port=node.port, decode_responses=True)
        found.append(await snapshot(direct))
        await direct.aclose()
    return found


async def test_backup_and_restore_on_a_cluster(
    cluster: list[RedisProcess], client: RedisCluster, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Staked matches on nine servers; backup, every node emptied, restore: every node holds what
    it held, the ledgers verify and the matches finish."""
    manager = GameManager(RedisStore(client), dice=SeededDice(9))
    tables = seats(9, 1, platform="saved")
    await asyncio.gather(*(open_match(manager, seat) for seat in tables))
    before = await every_node(cluster)
    assert all(before), "every master holds some of the servers"
    monkeypatch.setenv("REDIS_URL", cluster[0].url)
    monkeypatch.setenv("REDIS_CLUSTER", "true")
    path = tmp_path / "cluster.jsonl"
    assert await asyncio.to_thread(main, ["backup", str(path)]) == 0
    assert ": 9 servers, " in capsys.readouterr().out
    for node in cluster:
        with node.client() as direct:
            direct.flushall()
    assert await asyncio.to_thread(main, ["restore", str(path)]) == 0
    assert await every_node(cluster) == before
    assert await asyncio.to_thread(main, ["ledger", "verify"]) == 0
    fresh = GameManager(RedisStore(client), dice=SeededDice(10))
    assert all(await asyncio.gather(*(play_to_end(fresh, seat) for seat in tables)))
    assert await asyncio.to_thread(main, ["ledger", "verify"]) == 0


async def test_used_memory_sums_the_masters(
    cluster: list[RedisProcess], client: RedisCluster
) -> None:
    """`shutbox_redis_used_memory_bytes` on a cluster: every master's used_memory, added up."""
    from bot.redis_info import used_memory

    each = []
    for node in cluster:
        direct = aioredis.Redis(port=node.port, decode_responses=True)
        each.append(int((await direct.info("memory"))["used_memory"]))
        await direct.aclose()
    assert await used_memory(client) == pytest.approx(sum(each), rel=0.05)
    assert await used_memory(client) > max(each)
