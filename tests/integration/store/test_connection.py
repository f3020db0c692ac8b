"""The store and its Redis: unreachable, wrongly set up, scripts flushed, round trips."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

import core.store.ledger
import core.store.redis_store
from core.service.model.commit import (
    Status,
    StoredGame,
)
from core.store.redis_store import OutcomeUnknown, RedisStore, StoreUnavailable
from tests.integration.store.helpers import (
    ANN,
    ANTES,
    BEN,
    SCOPE,
    new_game,
    next_move,
)


async def test_redis_unreachable_raises_store_unavailable() -> None:
    """With Redis down, every store call raises the one error the adapters can show."""
    client = aioredis.from_url(
        "redis://127.0.0.1:1/0", decode_responses=True, retry=Retry(NoBackoff(), 0)
    )
    store = RedisStore(client)
    try:
        with pytest.raises(StoreUnavailable) as raised:  # refused: the commit was never sent
            await store.commit(new_game())
        assert not isinstance(raised.value, OutcomeUnknown)
        assert raised.value.key == "error.redis"
        with pytest.raises(StoreUnavailable) as unavailable:
            await store.balances(SCOPE, ["ann"])
        assert unavailable.value.key == "error.redis"
        with pytest.raises(StoreUnavailable):
            await store.load(SCOPE, "c1")
        with pytest.raises(StoreUnavailable):
            await anext(aiter(store.journal(SCOPE)))
    finally:
        await client.aclose()


async def test_client_must_decode_responses(redis_url: str) -> None:
    """The store refuses a client that would hand it bytes."""
    client = aioredis.from_url(redis_url)
    with pytest.raises(ValueError, match="decode_responses"):
        RedisStore(client)
    await client.aclose()


@pytest.mark.parametrize("new_player", [False, True], ids=["evalsha", "pipeline"])
async def test_script_missing_from_the_server_is_loaded(
    redis: Redis, monkeypatch: pytest.MonkeyPatch, new_player: bool
) -> None:
    """After a Redis restart (empty script cache) the first commit loads the script and runs."""
    fresh_script = core.store.redis_store.COMMIT_LUA + f"\n-- {uuid.uuid4()}\n"
    monkeypatch.setattr(core.store.redis_store, "COMMIT_LUA", fresh_script)
    store = RedisStore(redis)
    ensure = (ANN,) if new_player else ()
    assert (await store.commit(new_game(ensure_accounts=ensure))).status is Status.OK
    assert await store.load(SCOPE, "c1") == StoredGame(1, "lobby c1")


async def test_commit_and_load_are_one_round_trip_each(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit (even with the new server's SADD) and a load with balances each send once."""
    await store.commit(new_game("warm-up"))  # the script is in the server's cache from here
    sends: list[bytes] = []
    original = AbstractConnection.send_packed_command

    async def counting(self: AbstractConnection, command: Any, check_health: bool = True) -> None:
        sends.append(command)
        await original(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counting)
    await store.commit(new_game(transfers=ANTES))
    await store.commit(next_move(1))
    await store.load_with_balances(SCOPE, "c1", [ANN, BEN])
    assert len(sends) == 3
