"""Commits in flight at the same moment share one pipeline; each is still its own script."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio.connection import AbstractConnection

from core.service.commit import CommitResult, Status
from core.store.redis_store import RedisStore
from tests.integration.test_store import new_game


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
