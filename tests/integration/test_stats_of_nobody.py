"""`stats` of a member who never played here and never had chips says so, with the start chips
their `balance` shows (every member starts with them)."""

from __future__ import annotations

from redis.asyncio import Redis

from core.service.api.commands import Daily, Stats
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore

ANN = Context(Scope("test", "g1"), "c1", "ann", "Ann")


async def test_a_member_without_games_or_chips_has_played_no_game(redis: Redis) -> None:
    manager = GameManager(RedisStore(redis))
    reply = await manager.handle(ANN, Stats("nobody", "Nobody"))
    assert reply.public == (
        "Nobody has played no game here yet. Chips: 100 (what every member starts with).",
    )
    own = await manager.handle(ANN, Stats())
    assert "Chips: 100" in own.public[0]


async def test_a_member_with_chips_has_numbers(redis: Redis) -> None:
    manager = GameManager(RedisStore(redis))
    bob = Context(ANN.scope, "c1", "bob", "Bob")
    await manager.handle(bob, Daily())
    reply = await manager.handle(ANN, Stats("bob", "Bob"))
    assert "Chips: 125" in reply.public[0]
