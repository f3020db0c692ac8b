"""Deadlines, leaderboards, settings and the list of servers; one hash slot per server."""

from __future__ import annotations

from dataclasses import replace

from redis.asyncio import Redis
from redis.crc import key_slot

import core.store.ledger
import core.store.redis_store
from core.game.settlement import Transfer
from core.service.model.commit import (
    Commit,
    OpKind,
    Scope,
    Status,
    StoreOp,
)
from core.store.deadlines import DUE_KEY, EPOCH_KEY
from core.store.redis_store import RedisStore
from tests.integration.store.helpers import (
    ANN,
    ANTES,
    BEN,
    POT,
    SCOPE,
    new_game,
    next_move,
)


async def test_due_lists_channels_whose_deadline_passed(store: RedisStore) -> None:
    """Deadlines come due at their time, and leave with the game or its next move."""
    await store.commit(new_game("c1", deadline=100))
    await store.commit(new_game("c2", deadline=200))
    await store.commit(new_game("c3"))
    assert await store.due(SCOPE, 99) == []
    assert await store.due(SCOPE, 150) == ["c1"]
    assert await store.due(SCOPE, 200) == ["c1", "c2"]
    await store.commit(next_move(1, record=None))
    await store.commit(replace(next_move(1), channel="c2"))
    assert await store.due(SCOPE, 10_000) == []
    assert await store.load(SCOPE, "c1") is None


async def test_stats_min_ops_keep_the_lowest(store: RedisStore) -> None:
    """HMIN and ZMIN set a missing value, lower a larger one, and keep a smaller one."""

    def best(score: int) -> Commit:
        return Commit(
            scope=SCOPE,
            ops=(
                StoreOp(OpKind.HMIN, f"stats:{ANN}", "best", score),
                StoreOp(OpKind.ZMIN, "lb:best", ANN, score),
                StoreOp(OpKind.HINCRBY, f"stats:{ANN}", "games", 1),
                StoreOp(OpKind.ZINCRBY, "lb:wins", ANN, 2),
                StoreOp(OpKind.HSET, f"stats:{ANN}", "rules", "classic"),
                StoreOp(OpKind.ZSET, "lb:last", ANN, score),
            ),
        )

    for score in (30, 12, 20):
        assert (await store.commit(best(score))).status is Status.OK
    stats = await store.hash(SCOPE, f"stats:{ANN}")
    assert stats == {"best": "12", "games": "3", "rules": "classic"}
    assert await store.top(SCOPE, "lb:best", ascending=True) == [(ANN, 12.0)]
    assert await store.top(SCOPE, "lb:wins") == [(ANN, 6.0)]
    assert await store.top(SCOPE, "lb:last") == [(ANN, 20.0)]


async def test_chips_leaderboard_follows_player_balances(store: RedisStore) -> None:
    """lb:chips holds every player's balance, never the mint or a pot."""
    await store.commit(new_game(ensure_accounts=(ANN, BEN, "u3")))
    await store.commit(next_move(1, transfers=(*ANTES, Transfer(POT, "u3", 20))))
    board = await store.top(SCOPE, "lb:chips")
    assert board == [("u3", 120.0), (BEN, 90.0), (ANN, 90.0)]
    assert await store.top(SCOPE, "lb:chips", 1, ascending=True) == [(ANN, 90.0)]
    assert dict(board) == await store.balances(SCOPE, [ANN, BEN, "u3"])


async def test_server_config_fields_are_kept(store: RedisStore) -> None:
    """Server settings are a hash the store writes and reads back."""
    await store.set_fields(SCOPE, "cfg", {"lang": "da", "daily": "25"})
    assert await store.hash(SCOPE, "cfg") == {"lang": "da", "daily": "25"}


async def test_servers_lists_every_scope_with_a_game_or_chips(store: RedisStore) -> None:
    """A server is listed once it had a game or a player's chips, and only then."""
    slack = Scope("slack", "T1:x")
    await store.commit(new_game(scope=slack, ensure_accounts=()))
    await store.commit(Commit(scope=Scope("discord", "g2"), ensure_accounts=(ANN,)))
    await store.commit(Commit(scope=Scope("discord", "g3")))
    assert await store.servers() == [Scope("discord", "g2"), slack]


async def test_every_key_of_a_server_shares_one_hash_slot(redis: Redis, store: RedisStore) -> None:
    """All keys of a server carry the same hash tag, so a Redis Cluster keeps them in one slot."""
    await store.commit(
        new_game(
            transfers=ANTES,
            request_id="i-6",
            deadline=9,
            ops=(StoreOp(OpKind.ZINCRBY, "lb:wins", ANN, 1),),
        )
    )
    # the indexes over all servers
    global_keys = {core.store.redis_store.SERVERS_KEY, DUE_KEY, EPOCH_KEY}
    keys = [key for key in await redis.keys("*") if key not in global_keys]
    assert len(keys) >= 7
    assert {key_slot(key.encode()) for key in keys} == {key_slot(b"discord:g1")}
