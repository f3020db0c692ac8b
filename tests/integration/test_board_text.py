"""Leaderboards and stats read in the server's language: decimal commas, counted nouns."""

from __future__ import annotations

from redis.asyncio import Redis

from core.game.rules import preset
from core.service.api.commands import Configure, Leaderboard, Stats
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE

CLASSIC = preset("classic").to_str()


async def _seed_averages(redis: Redis) -> None:
    """Ann: 7 turns adding up to 100 (average 14.3); one shut box."""
    await redis.zadd(f"{SCOPE.tag}:lb:turns:{CLASSIC}", {"ann": 7})
    await redis.zadd(f"{SCOPE.tag}:lb:sum:{CLASSIC}", {"ann": 100})
    await redis.hset(f"{SCOPE.tag}:names", "ann", "Ann")
    await redis.hset(
        f"{SCOPE.tag}:stats:ann",
        mapping={f"turns:{CLASSIC}": 1, f"sum:{CLASSIC}": 19, f"best:{CLASSIC}": 19,
                 f"shuts:{CLASSIC}": 1},
    )  # fmt: skip


async def test_danish_leaderboard_average_writes_a_decimal_comma(redis: Redis) -> None:
    """The average board writes 14,3 on a Danish server, 14.3 on an English one."""
    await _seed_averages(redis)
    manager = GameManager(RedisStore(redis))
    ctx = Context(SCOPE, "c1", "ann", "Ann", admin=True)
    english = await manager.handle(ctx, Leaderboard("average"))
    await manager.handle(ctx, Configure({"lang": "da"}))
    danish = await manager.handle(ctx, Leaderboard("average"))
    assert "1. Ann — 14.3" in english.public[0] and "1. Ann — 14,3" in danish.public[0]


async def test_stats_count_turns_and_shuts_with_the_right_noun(redis: Redis) -> None:
    """One turn and one shut read `1 turn`, `1 time` (`1 tur`, `1 gang`), named as the preset."""
    await _seed_averages(redis)
    manager = GameManager(RedisStore(redis))
    ctx = Context(SCOPE, "c1", "ann", "Ann", admin=True)
    english = (await manager.handle(ctx, Stats(all_time=True))).public[0]
    assert "Classic: best 19, average 19.0 over 1 turn, box shut 1 time" in english
    await manager.handle(ctx, Configure({"lang": "da"}))
    danish = (await manager.handle(ctx, Stats(all_time=True))).public[0]
    assert "bedst 19, gennemsnit 19,0 over 1 tur, kassen lukket 1 gang" in danish
