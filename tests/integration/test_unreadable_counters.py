"""A stats counter, challenge streak or challenge result that can't be read (a hand edit, a
damaged restore: `²`, `abc`) stays in its box on a real Redis: a match its member plays still
finishes and pays, the ledger verifies, every other counter advances, a challenge still
finishes, the damaged value is left as it is (`stats` shows `—` for it), and it is counted
once as an unreadable record."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from bot.telemetry import Telemetry
from core.service.api.commands import Begin, Challenge, Click, Join, Start
from core.service.features.challenge.day import Result, day_of
from core.service.model import keys
from core.service.model.settings import StartOptions
from core.service.model.views import Reply
from core.store.redis_store import RedisStore
from core.text.i18n import t
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager

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


STREAKS = f"{SCOPE.tag}:challenge:streak"


async def finished_challenge(table: Table) -> Reply:
    """Ann's daily challenge, her first button pressed until the turn is over."""
    reply = await table.manager.handle(table.ctx("Ann"), Challenge())
    for _ in range(30):  # bounded: a refused commit must fail here, not loop
        assert reply.game is not None, reply.private
        if reply.game.over:
            return reply
        reply = await table.manager.handle(table.ctx("Ann"), Click(reply.game.rows[0][0].action_id))
    raise AssertionError("the challenge never finished")


@pytest.mark.parametrize("damage", ["2026-12-04 ² 1 1", "2026-13-45 1 1 1", "x"])
async def test_a_damaged_challenge_streak_is_left_and_the_challenge_still_finishes(
    redis: Redis, store: RedisStore, damage: str
) -> None:
    telemetry, clock = Telemetry(), Clock()
    table = Table(manager(store, clock=clock))
    table.manager.on_unreadable = telemetry.unreadable
    await redis.hset(STREAKS, "ann", damage)

    done = await finished_challenge(table)

    assert done.public and done.public[0].startswith("Ann finished challenge")
    day = day_of(clock())
    stored = await redis.hget(f"{SCOPE.tag}:{keys.challenge_day(day)}", "ann")
    assert Result.from_str(str(stored)) is not None  # the result is on the day's board
    assert await redis.hget(STREAKS, "ann") == damage  # left as it is, never reset
    again = await table.manager.handle(table.ctx("Ann"), Challenge())  # the result, once more
    assert again.private and not again.refused
    assert counted(telemetry, "challenge") == 1


async def test_a_damaged_challenge_result_answers_one_line(redis: Redis, store: RedisStore) -> None:
    telemetry, clock = Telemetry(), Clock()
    table = Table(manager(store, clock=clock))
    table.manager.on_unreadable = telemetry.unreadable
    await finished_challenge(table)
    day_key = f"{SCOPE.tag}:{keys.challenge_day(day_of(clock()))}"
    await redis.hset(day_key, "ann", "r ² 0.5 12 gg")

    again = await table.manager.handle(table.ctx("Ann"), Challenge())

    assert again.private == t("en", "error.unreadable.challenge") and again.refused
    assert await redis.hget(day_key, "ann") == "r ² 0.5 12 gg"
    assert counted(telemetry, "challenge") == 1
