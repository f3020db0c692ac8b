"""Commit scripts of concurrent clicks, sent together: one pipeline per round trip.

While one batch is on its way to Redis, the commits that arrive wait and then go out together
in the next one (like Nagle's algorithm, but never waiting when nothing is in flight). Each
commit still runs as its own script, all or nothing, in order; only the round trip is shared.
Python's cost per command (packing, a socket write, reading the reply, waking the task) is what
a click mostly spends, and a pipeline pays most of it once per batch
(tests/bench/bench_commit.py, `commit_pipelined_*` against `commit_in_flight_4`).

A batch of one is sent as a plain EVALSHA. A lost connection fails every commit of its batch the
way it fails a lone command: the caller cannot know whether its script ran (`OutcomeUnknown` in
core/store/redis_store.py). A script error (e.g. NOSCRIPT) fails only its own commit.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import ResponseError

MAX_BATCH = 64  # commits per pipeline: past this, one batch's latency outweighs the saving


def _new_future() -> asyncio.Future[Any]:
    return asyncio.get_running_loop().create_future()


@dataclass(slots=True)
class _Call:
    sha: str
    keys: list[str]
    args: list[str]
    register: str | None  # a server to add to `also_key` in the same round trip
    reply: asyncio.Future[Any] = field(default_factory=_new_future)


class CommitBatcher:
    """EVALSHA through one pipeline per round trip for everything waiting to go."""

    def __init__(self, redis: Redis, also_key: str) -> None:
        self._redis = redis
        self._also_key = also_key  # the set a commit's `register` member is added to
        self._waiting: list[_Call] = []
        self._sender: asyncio.Task[None] | None = None

    async def evalsha(
        self, sha: str, keys: list[str], args: list[str], register: str | None
    ) -> Any:
        """The script's reply; raises what the pipeline raised for it, or for the whole batch."""
        call = _Call(sha, keys, args, register)
        self._waiting.append(call)
        if self._sender is None:
            self._sender = asyncio.create_task(self._send_all())
        # A cancelled click cancels only its own future: the batch goes out all the same.
        return await call.reply

    async def _send_all(self) -> None:
        try:
            while self._waiting:
                batch = self._waiting[:MAX_BATCH]
                del self._waiting[:MAX_BATCH]
                await self._send(batch)
        finally:
            self._sender = None

    async def _send(self, batch: list[_Call]) -> None:
        try:
            replies = iter(await self._replies(batch))
        except Exception as exc:  # the connection: nobody knows which scripts ran
            for call in batch:
                _settle(call.reply, error=exc)
            return
        except BaseException:  # the loop is going away: so are the clicks
            for call in (*batch, *self._waiting):
                call.reply.cancel()
            raise
        for call in batch:
            reply = next(replies)
            if call.register is not None:
                next(replies)  # SADD's count: nothing to report
            _settle(call.reply, reply)

    async def _replies(self, batch: list[_Call]) -> list[Any]:
        """Every command's reply in order; a script's own error comes back as its reply."""
        if len(batch) == 1 and batch[0].register is None:
            # A pipeline's own cost buys nothing for one command: about an eighth of a lone
            # click (tests/bench/bench_click.py, `commit_us`).
            call = batch[0]
            try:
                return [await self._redis.evalsha(call.sha, len(call.keys), *call.keys, *call.args)]
            except ResponseError as error:  # NOSCRIPT and the like: only this script failed
                return [error]
        pipe = self._redis.pipeline(transaction=False)
        for call in batch:
            pipe.evalsha(call.sha, len(call.keys), *call.keys, *call.args)
            if call.register is not None:
                pipe.sadd(self._also_key, call.register)
        return list(await pipe.execute(raise_on_error=False))


def _settle(future: asyncio.Future[Any], reply: Any = None, error: Exception | None = None) -> None:
    if future.done():
        return
    if error is None and isinstance(reply, Exception):
        error = reply
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(reply)
