"""The ceilings a click is measured against (`shutbox bench --baseline`).

- `baseline_per_second`: a bare `EVALSHA "return 1"` loop through the same redis-py client (same
  pool, same settings) with the same number of calls in flight: what the client library itself
  needs for one script call, so `ratio` says how much of it a whole click keeps.
- `redis_benchmark_per_second`: `redis-benchmark -c <in flight> EVAL "return 1" 0` when it is on
  the PATH: the server's own ceiling for one script round trip, with no Python at all.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import time
from typing import Any

from redis.asyncio import Redis

BARE_SCRIPT = "return 1"
SERVER_CALLS = 100_000  # redis-benchmark requests: a fraction of a second on any server
_RATE = re.compile(r"([\d.]+) requests per second")


async def bare_evalsha_per_second(redis: Redis, calls: int, in_flight: int) -> float:
    """`calls` bare EVALSHAs, `in_flight` at a time, through `redis`: calls per second."""
    script = redis.register_script(BARE_SCRIPT)
    await redis.script_load(BARE_SCRIPT)
    left = [calls]

    async def worker() -> None:
        while left[0] > 0:
            left[0] -= 1
            await redis.evalsha(script.sha, 0)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    seconds = time.perf_counter() - started
    return round(calls / seconds, 1) if seconds else 0.0


def redis_benchmark_per_second(redis: Redis, in_flight: int) -> float | None:
    """The server's own figure for one EVAL round trip, or None without `redis-benchmark`."""
    program = shutil.which("redis-benchmark")
    if program is None:
        return None
    command = [program, *_target(redis.connection_pool.connection_kwargs), "-c", str(in_flight)]
    command += ["-n", str(SERVER_CALLS), "-q", "EVAL", BARE_SCRIPT, "0"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    except (OSError, subprocess.SubprocessError):
        return None  # a figure we could not get is left out, never guessed
    found = _RATE.findall(done.stdout.replace("\r", "\n"))
    return float(found[-1]) if found else None


def _target(kwargs: dict[str, Any]) -> list[str]:
    """redis-benchmark's options for the server the client talks to (TCP or unix socket)."""
    target = ["-s", str(kwargs["path"])] if kwargs.get("path") else []
    if not target:
        target = ["-h", str(kwargs.get("host", "127.0.0.1")), "-p", str(kwargs.get("port", 6379))]
    if kwargs.get("password"):
        target += ["-a", str(kwargs["password"]), "--no-auth-warning"]
    return target
