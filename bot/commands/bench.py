"""`shutbox bench`: concurrent games through the manager against the configured Redis."""

from __future__ import annotations

import argparse
import asyncio
import json

from bot.bench import IN_FLIGHT
from bot.commands import CommandError, Subparsers, bounded_int
from bot.settings import load_settings


def register(subparsers: Subparsers) -> None:
    """Add `bench` to the command line."""
    parser = subparsers.add_parser("bench", help="benchmark the game manager", description=__doc__)
    parser.add_argument(
        "--games", type=bounded_int(1, 100_000), default=1000, help="concurrent channel games"
    )
    parser.add_argument(
        "--actions", type=bounded_int(0, 10_000_000), default=20000, help="clicks to make in all"
    )
    parser.add_argument("--seed", type=bounded_int(0, 2**32), default=1, help="dice seed")
    parser.add_argument(
        "--in-flight", type=bounded_int(1, 1000), default=IN_FLIGHT,
        help="clicks handled at the same moment",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report = asyncio.run(bench(args.games, args.actions, args.seed, args.in_flight))
    if args.json:
        print(json.dumps(report))
    else:
        for name, value in report.items():
            print(f"{name:>24}: {value}")
    return 0


async def bench(games: int, actions: int, seed: int, in_flight: int) -> dict[str, float]:
    from redis.asyncio import Redis

    from bot.bench import run_bench
    from bot.runtime import open_runtime

    settings = load_settings()
    async with open_runtime(settings.redis.url, settings.core.data_dir) as runtime:
        if not isinstance(runtime.redis, Redis):
            # The server-side counts come from one node's INFO: meaningless on a cluster.
            raise CommandError("bench measures one Redis server; unset REDIS_CLUSTER to run it")
        report = await run_bench(runtime.redis, games, actions, seed, in_flight)
    return report.as_dict()
