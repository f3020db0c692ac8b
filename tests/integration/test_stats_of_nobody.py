"""`stats` of a member who never played here and never had chips says so; it does not invent
the start chips for them (the caller's own stats still show what they may play with)."""

from __future__ import annotations

from redis.asyncio import Redis

from core.service.api.commands import Daily, Stats
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore

ANN = Context(Scope("test", "g1"), "c1", "ann", "Ann")


async def test_a_member_without_games_or_chips_has_no_numbers(redis: Redis) -> None:
    manager = GameManager(RedisStore(redis))
    reply = await manager.handle(ANN, Stats("nobody", "Nobody"))
    assert reply.public == ("Nobody has no numbers here yet: no game played, no chips.",)
    own = await manager.handle(ANN, Stats())
    assert "Chips: 100" in own.public[0]


async def test_a_member_with_chips_has_numbers(redis: Redis) -> None:
    manager = GameManager(RedisStore(redis))
    bob = Context(ANN.scope, "c1", "bob", "Bob")
    await manager.handle(bob, Daily())
    reply = await manager.handle(ANN, Stats("bob", "Bob"))
    assert "Chips: 125" in reply.public[0]
