"""A stats counter that can't be read (a hand edit, a damaged restore: `²`, `abc`) stays in its
box on a real Redis: a match its member plays still finishes and pays, the ledger verifies,
every other counter advances, the damaged one is left as it is (`stats` shows `—` for it), and
it is counted once as an unreadable record."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from bot.telemetry import Telemetry
from core.service.api.commands import Begin, Join, Start
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Table, manager

ANN_STATS = f"{SCOPE.tag}:stats:ann"
BAL = f"{SCOPE.tag}:bal"


def counted(telemetry: Telemetry, kind: str) -> float:
    value = telemetry.registry.get_sample_value("shutbox_unreadable_records_total", {"kind": kind})
    return value or 0.0


async def staked_match(table: Table) -> None:
    """Ann and Bob play one round for a pot of 5 each, pressing until it is over."""
    options = StartOptions(format="rounds:1", stakes="pot:5")
    await table.manager.handle(table.ctx("Ann"), Start(options))
    await table.manager.handle(table.ctx("Bob"), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    for _ in range(60):  # a bounded play-out: a refused commit must fail here, not loop
        player = await table.to_act()
        if player is None:
            break
        await table.press(player)
    assert table.last.game is not None and table.last.game.over


@pytest.mark.parametrize("damage", ["²", "abc", "007"])
async def test_a_match_finishes_and_pays_beside_a_damaged_counter(
    redis: Redis, store: RedisStore, damage: str
) -> None:
    telemetry = Telemetry()
    store.on_unreadable = telemetry.unreadable
    table = Table(manager(store))
    await redis.hset(ANN_STATS, mapping={"games": damage, "rounds": "4"})

    await staked_match(table)
    paid = await redis.hgetall(BAL)
    assert sorted(int(paid[user]) for user in ("ann", "bob")) == [95, 105]  # the pot was paid
    await staked_match(table)  # met again: counted once

    stats = await redis.hgetall(ANN_STATS)
    assert stats["games"] == damage  # left as it is, never reset
    assert stats["rounds"] == "6"  # the rest advanced, once per match
    assert await redis.hget(f"{SCOPE.tag}:stats:bob", "games") == "2"
    report = await store.verify_ledger(SCOPE)
    assert report.ok, report
    assert counted(telemetry, "stats") == 1
