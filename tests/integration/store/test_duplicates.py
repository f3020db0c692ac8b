"""One request id applies once: twice in a row, from two processes, after a lost reply."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from core.service.model.commit import (
    Status,
)
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


async def test_same_request_id_twice_is_applied_once(store: RedisStore) -> None:
    """A repeated request id changes nothing and gets the first request's result back."""
    await store.commit(new_game())
    move = next_move(1, transfers=ANTES, request_id="i-1", result="first")
    assert (await store.commit(move)).status is Status.OK
    again = await store.commit(replace(move, result="second"))
    assert (again.status, again.result, again.version) == (Status.DUPLICATE, "first", 2)
    assert await store.balances(SCOPE, [ANN, BEN, POT]) == {ANN: 90, BEN: 90, POT: 20}


async def test_concurrent_duplicates_from_two_processes_apply_once(
    redis_url: str, store: RedisStore
) -> None:
    """Two bot processes sending the same request at once: one applies, one gets its result."""
    await store.commit(new_game())
    clients = [aioredis.from_url(redis_url, decode_responses=True) for _ in range(2)]
    move = next_move(1, transfers=ANTES, request_id="i-2", result="done")
    try:
        results = await asyncio.gather(*(RedisStore(c).commit(move) for c in clients))
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))
    assert sorted(r.status for r in results) == [Status.DUPLICATE, Status.OK]
    assert {r.result for r in results if r.status is Status.DUPLICATE} == {"done"}
    assert await store.balances(SCOPE, [POT]) == {POT: 20}
    assert (await store.verify_ledger(SCOPE)).entries == 4


async def test_retried_commit_after_lost_reply_is_duplicate(store: RedisStore) -> None:
    """The script run twice with one request id (a retry after a lost reply) applies once."""
    await store.commit(new_game())
    move = next_move(1, transfers=ANTES, request_id="i-3", result="paid")
    first, retried = await store.commit(move), await store.commit(move)
    assert (first.status, retried.status, retried.result) == (Status.OK, Status.DUPLICATE, "paid")
    assert await store.balances(SCOPE, [ANN, POT]) == {ANN: 90, POT: 20}


class ReplyDropper:
    """A loopback proxy to Redis that swallows the reply to the next EVALSHA, then hangs up."""

    def __init__(self, redis: Redis) -> None:
        self.upstream: dict[str, Any] = dict(redis.connection_pool.connection_kwargs)
        self.armed = True
        self.server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        port = self.server.sockets[0].getsockname()[1]
        return f"redis://127.0.0.1:{port}/{self.upstream.get('db', 0)}"

    async def _open_upstream(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if "path" in self.upstream:
            return await asyncio.open_unix_connection(self.upstream["path"])
        return await asyncio.open_connection(self.upstream["host"], self.upstream["port"])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await self._open_upstream()
        dropping = asyncio.Event()

        async def to_redis() -> None:
            while data := await reader.read(65536):
                if self.armed and b"EVALSHA" in data.upper():
                    self.armed = False
                    dropping.set()
                up_writer.write(data)
                await up_writer.drain()

        async def to_client() -> None:
            while data := await up_reader.read(65536):
                if dropping.is_set():
                    writer.close()  # the script ran; its reply is lost on the way back
                    return
                writer.write(data)
                await writer.drain()

        tasks = [asyncio.create_task(to_redis()), asyncio.create_task(to_client())]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        for stream in (writer, up_writer):
            stream.close()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[ReplyDropper]:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        async with self.server:
            yield self


@pytest.mark.parametrize("new_player", [False, True], ids=["evalsha", "pipeline"])
async def test_lost_reply_is_retried_by_redis_py_and_applied_once(
    redis: Redis, store: RedisStore, new_player: bool
) -> None:
    """redis-py retries a command whose reply was lost; the retry gets DUPLICATE, not a re-run."""
    await store.commit(new_game())
    ensure = ("u3",) if new_player else ()
    move = next_move(1, transfers=ANTES, request_id="i-4", result="paid", ensure_accounts=ensure)
    async with ReplyDropper(redis).running() as proxy:
        client = aioredis.from_url(proxy.url, decode_responses=True, retry=Retry(NoBackoff(), 2))
        try:
            result = await RedisStore(client).commit(move)
        finally:
            await client.aclose()
    assert not proxy.armed, "the proxy never saw the EVALSHA"
    assert (result.status, result.result, result.version) == (Status.DUPLICATE, "paid", 2)
    assert await store.balances(SCOPE, [ANN, BEN, POT]) == {ANN: 90, BEN: 90, POT: 20}
    assert (await store.verify_ledger(SCOPE)).ok
