"""Commit-path benchmark: one pinned measurement per lever of the click path.

Run `python -m tests.bench.bench_commit [--calls N] [--json PATH]` with `REDIS_URL` pointing at a
spare database (a server of its own gives the cleanest figures). It reports numbers only;
nothing here asserts on time. The levers:

- `payload_*`: encoding one click's commit for the script (stdlib json vs orjson), per second;
- `evalsha_in_flight_4`: bare `EVALSHA "return 1"`, four calls in flight on redis-py's pool:
  the `--baseline` of `shutbox bench`;
- `evalsha_pipelined_<k>`: the same calls sent k to a pipeline (one round trip per k): what
  batching several games' commits per round trip could give at most;
- `commit_in_flight_4` / `commit_pipelined_<k>`: the real commit script with a warm click's
  arguments, the same two ways.
- `script_exec_us` / `script_commands`: a mid-game click's commit applied back to back (its
  version check passes, the member's rate counter counts, the record, deadline and a
  reply-sized result are written): the script's execution µs per call and the commands it runs
  inside, from `INFO commandstats` before and after (Redis hot: under a light load each call
  also pays for Redis waking up).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import orjson
from redis.asyncio import Redis

from core.service.model.commit import Commit, Scope
from core.store.commit_wire import JOURNAL_FOLD, JOURNAL_KEEP, arguments, commit_keys
from core.store.redis_store import COMMIT_LUA
from tests.bench.on_redis import bench_main

IN_FLIGHT = 4
BATCHES = (4, 16, 64)
RECORD = "x" * 400  # about the size of a live game's record
REPLY_BYTES = 1800  # about the size of a turn's reply, kept under its request id
# Commands of the measurement's own client, not run inside the script.
NOT_INSIDE = {"cmdstat_evalsha", "cmdstat_info", "cmdstat_script", "cmdstat_client",
              "cmdstat_hello", "cmdstat_scan", "cmdstat_del"}  # fmt: skip


def _commit(version: int) -> Commit:
    scope = Scope("benchcommit", "s1")
    return Commit(scope, "c1", version - 1, RECORD, version, request_id=f"r{version}",
                  result="y" * 300, deadline=2_000_000_000)  # fmt: skip


def payload_rates(calls: int) -> dict[str, float]:
    """The commit's JSON, stdlib against orjson, on the same dict."""
    body: dict[str, Any] = json.loads(arguments(_commit(2), [], 3600, (1, 1))[0])
    rates = {}
    for name, encode in (("payload_json", _stdlib), ("payload_orjson", orjson.dumps)):
        started = time.perf_counter()
        for _ in range(calls):
            encode(body)
        rates[f"{name}_per_second"] = calls / (time.perf_counter() - started)
    return rates


def _stdlib(body: dict[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


async def _in_flight(calls: int, call: Callable[[int], Awaitable[Any]]) -> float:
    left = [calls]

    async def worker() -> None:
        while left[0] > 0:
            left[0] -= 1
            await call(left[0])

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
    return calls / (time.perf_counter() - started)


async def _pipelined(
    redis: Redis, calls: int, batch: int, sha: str, make: Callable[[int], tuple[Any, ...]]
) -> float:
    started = time.perf_counter()
    for start in range(0, calls, batch):
        pipe = redis.pipeline(transaction=False)
        for index in range(start, min(calls, start + batch)):
            pipe.evalsha(sha, *make(index))
        await pipe.execute(raise_on_error=False)
    return calls / (time.perf_counter() - started)


def _commit_call(index: int) -> tuple[Any, ...]:
    """A script call the version check refuses (no write): its cost is the round trip's."""
    commit = _commit(10**9 + index)
    keys = commit_keys(commit)
    return (len(keys), *keys, *arguments(commit, [], 3600, (JOURNAL_KEEP, JOURNAL_FOLD)))


async def redis_rates(redis: Redis, calls: int) -> dict[str, float]:
    bare = await redis.script_load("return 1")
    script = await redis.script_load(COMMIT_LUA)
    rates = {"evalsha_in_flight_4": await _in_flight(calls, lambda _: redis.evalsha(bare, 0))}
    for batch in BATCHES:
        rates[f"evalsha_pipelined_{batch}"] = await _pipelined(
            redis, calls, batch, bare, lambda _: (0,)
        )
    rates["commit_in_flight_4"] = await _in_flight(
        calls, lambda i: redis.evalsha(script, *_commit_call(i))
    )
    for batch in BATCHES:
        rates[f"commit_pipelined_{batch}"] = await _pipelined(
            redis, calls, batch, script, _commit_call
        )
    return {name: round(rate, 1) for name, rate in rates.items()}


def _applied_call(scope: Scope, version: int) -> tuple[Any, ...]:
    """A mid-game click's commit that applies: the version before it is the stored one."""
    commit = Commit(scope, "c1", version - 1 if version > 1 else None, RECORD, version,
                    request_id=f"r{version}", result="y" * REPLY_BYTES,
                    deadline=2_000_000_000 + version)  # fmt: skip
    keys = [*commit_keys(commit), f"{scope.tag}:rate:cmd:bench"]  # a click's count rides along
    rate = [len(keys), 10**9, 60_000]  # its key, a limit never reached, the window (ms)
    return (len(keys), *keys, *arguments(commit, [], 3600, (JOURNAL_KEEP, JOURNAL_FOLD), rate))


async def script_cost(redis: Redis, calls: int) -> dict[str, float]:
    """The commit script's own execution time and commands per applied click."""
    script = await redis.script_load(COMMIT_LUA)
    scope = Scope("benchcommit", "applied")
    before: dict[str, Any] = await redis.info("commandstats")
    for start in range(1, calls + 1, 64):
        pipe = redis.pipeline(transaction=False)
        for version in range(start, min(calls, start + 63) + 1):
            pipe.evalsha(script, *_applied_call(scope, version))
        await pipe.execute()
    after: dict[str, Any] = await redis.info("commandstats")
    async for key in redis.scan_iter(match=f"{scope.tag}:*"):
        await redis.delete(key)

    def grew(name: str, field: str) -> float:
        return float(after.get(name, {}).get(field, 0) - before.get(name, {}).get(field, 0))

    inner = sum(grew(name, "calls") for name in after if name not in NOT_INSIDE)
    return {
        "script_exec_us": round(grew("cmdstat_evalsha", "usec") / calls, 2),
        "script_commands": round(inner / calls, 2),
    }


async def measure(redis: Redis, calls: int) -> dict[str, float]:
    return {
        **payload_rates(calls * 10),
        **await redis_rates(redis, calls),
        **await script_cost(redis, min(calls, 10_000)),
    }


def main(argv: list[str] | None = None) -> None:
    bench_main(__doc__ or "", measure, ("--calls", 20000, "calls per measurement"), argv)


if __name__ == "__main__":
    main()
