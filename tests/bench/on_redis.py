"""What the benchmarks that need a spare Redis share: the client from `REDIS_URL`, a count
option, and the figures printed (and written as JSON when asked)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

import redis.asyncio as aioredis
from redis.asyncio import Redis

Measure = Callable[[Redis, int], Awaitable[dict[str, float]]]


def bench_main(
    description: str, measure: Measure, count: tuple[str, int, str], argv: list[str] | None
) -> None:
    """Parse `--<count> N [--json PATH]`, run `measure(redis, N)`, print its figures."""
    flag, default, meaning = count
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(flag, type=int, default=default, dest="count", help=meaning)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    url = os.environ.get("REDIS_URL")
    if not url:
        parser.error("set REDIS_URL to a spare database (the benchmark writes to it)")
    figures = asyncio.run(_on_redis(url, measure, args.count))
    for name, value in figures.items():
        print(f"{name:>32}: {value:14,.3f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")


async def _on_redis(url: str, measure: Measure, count: int) -> dict[str, float]:
    redis = aioredis.from_url(url, decode_responses=True)
    try:
        return await measure(redis, count)
    finally:
        await redis.aclose()
