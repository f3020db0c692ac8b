"""`shutbox bench`: concurrent games through the manager against the configured Redis."""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.bench.games import IN_FLIGHT
from bot.commands import CommandError, Subparsers, bounded_int
from bot.settings import load_settings

if TYPE_CHECKING:
    from redis.asyncio import Redis


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
    parser.add_argument(
        "--servers",
        type=bounded_int(1, 10_000_000),
        default=None,
        help="spread the games over this many servers, all known to the deadline sweep",
    )
    parser.add_argument(
        "--stakes", type=stakes, default=None,
        help='stake every match, e.g. "pot:1" (the journal grows)',
    )  # fmt: skip
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="also time a bare EVALSHA loop through the same client (and redis-benchmark)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(func=run)


def stakes(text: str) -> str:
    """Stakes as `/shutbox start` takes them (`pot:5`, `canoga`), for argparse."""
    from core.game.errors import InvalidOption
    from core.game.match import Stakes
    from core.text.i18n import t

    try:
        Stakes.parse(text)
    except InvalidOption as exc:
        raise argparse.ArgumentTypeError(t("en", exc.key, **exc.params)) from None
    return text


def run(args: argparse.Namespace) -> int:
    options = BenchOptions(
        args.games, args.actions, args.seed, args.in_flight, args.servers, args.baseline,
        args.stakes,
    )  # fmt: skip
    report = asyncio.run(bench(options))
    if args.json:
        print(json.dumps(report))
    else:
        for name, value in report.items():
            print(f"{name:>24}: {value}")
    return 0


@dataclass(frozen=True, slots=True)
class BenchOptions:
    games: int
    actions: int
    seed: int = 1
    in_flight: int = IN_FLIGHT
    servers: int | None = None
    baseline: bool = False
    stakes: str | None = None


async def bench(options: BenchOptions) -> dict[str, float]:
    from redis.asyncio import Redis

    from bot.bench.games import run_bench
    from bot.runtime import open_runtime

    settings = load_settings()
    async with open_runtime(settings.redis.url, settings.core.data_dir) as runtime:
        if not isinstance(runtime.redis, Redis):
            # The server-side counts come from one node's INFO: meaningless on a cluster.
            raise CommandError("bench measures one Redis server; unset REDIS_CLUSTER to run it")
        report = (await run_bench(
            runtime.redis, options.games, options.actions, options.seed, options.in_flight,
            options.servers, options.stakes,
        )).as_dict()  # fmt: skip
        if options.baseline:
            report.update(await _baseline(runtime.redis, report, options))
    return report


async def _baseline(
    redis: Redis, report: dict[str, float], options: BenchOptions
) -> dict[str, float]:
    """The bare-client ceiling in the same run, and the click rate as a share of it."""
    from bot.bench.baseline import bare_evalsha_per_second, redis_benchmark_per_second

    calls = max(int(report["actions"]), 1000)
    bare = await bare_evalsha_per_second(redis, calls, options.in_flight)
    figures = {"baseline_per_second": bare,
               "ratio": round(report["actions_per_second"] / bare, 3) if bare else 0.0}  # fmt: skip
    server = await asyncio.to_thread(redis_benchmark_per_second, redis, options.in_flight)
    if server is not None:
        figures["redis_benchmark_per_second"] = server
    return figures
