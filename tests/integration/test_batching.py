"""Commits in flight at the same moment share one pipeline; each is still its own script."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection

from core.service.model.commit import CommitResult, Status
from core.store.redis_store import RedisStore
from tests.integration.store.helpers import new_game
from tests.scale.servers import free_port, redis_server


async def test_commits_in_flight_at_once_share_a_round_trip_and_each_applies_once(
    store: RedisStore,
) -> None:
    """Ten games' first commits sent at the same moment go out together; each applies, once,
    and one whose caller gave up still applies with its batch (as a sent command would)."""
    commits = [new_game(channel=f"c{index}", request_id=f"g{index}") for index in range(10)]
    sent = [asyncio.ensure_future(store.commit(commit)) for commit in commits]
    await asyncio.sleep(0)  # every commit is queued, the batch on its way
    sent[3].cancel()
    done = await asyncio.gather(*sent, return_exceptions=True)
    results = [result for result in done if isinstance(result, CommitResult)]
    assert len(results) == 9 and all(result.status is Status.OK for result in results)
    again = await asyncio.gather(*(store.commit(commit) for commit in commits))
    assert [result.status for result in again] == [Status.DUPLICATE] * 10  # the cancelled too


async def test_twenty_commits_sent_together_take_one_round_trip(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty games' commits made at the same moment reach Redis in one write, not twenty,
    and every one of them applies."""
    writes = []
    original = AbstractConnection.send_packed_command

    async def counted(self: AbstractConnection, *args: Any, **kwargs: Any) -> None:
        writes.append(1)
        await original(self, *args, **kwargs)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    commits = [new_game(channel=f"c{index}") for index in range(20)]
    results = await asyncio.gather(*(store.commit(commit) for commit in commits))
    assert [result.status for result in results] == [Status.OK] * 20
    assert len(writes) == 1


@pytest.fixture
async def own_redis(tmp_path: Path) -> AsyncIterator[Redis]:
    """A Redis of this test's own, whose script cache it may flush."""
    port = free_port()
    with redis_server(tmp_path / "own", port):
        client = aioredis.from_url(f"redis://127.0.0.1:{port}/0", decode_responses=True)
        yield client
        await client.aclose()


@pytest.mark.parametrize("together", [1, 5])
async def test_a_flushed_script_is_loaded_again_for_a_lone_commit_or_a_batch(
    own_redis: Redis, together: int
) -> None:
    """After SCRIPT FLUSH (a restarted Redis), a commit sent alone and commits sent together
    all apply once: the script is loaded again and each is sent once more."""
    own_store = RedisStore(own_redis)
    await own_store.commit(new_game(channel="warm"))  # the script is loaded and known
    await own_redis.script_flush()
    commits = [new_game(channel=f"c{index}", request_id=f"r{index}") for index in range(together)]
    results = await asyncio.gather(*(own_store.commit(commit) for commit in commits))
    assert [result.status for result in results] == [Status.OK] * together
    again = await asyncio.gather(*(own_store.commit(commit) for commit in commits))
    assert [result.status for result in again] == [Status.DUPLICATE] * together
