"""The whole click as an operator pays it: the real `shutbox discord` / `shutbox slack` process
against the project's loopback fakes, beside a bare bot on the same library driven by the same
fake, on a Redis of the benchmark's own.

    python -m tests.bench.bench_surface --surface slack --games 40 --in-flight 4 --json out.json

For each bot: clicks per second, p50/p99 click latency (click sent until the message is edited
or the interaction answered), the bot process's CPU µs per click (/proc/PID/stat), Redis's CPU
µs per click and commands per click (INFO cpu and commandstats); then ours over the bare bot's.
A game's opening command is counted as one more click. Nothing here is asserted: the machine is
shared, so read the ratios, which compare runs made minutes apart on the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from tests.bench.surface_discord import bench_discord
from tests.bench.surface_measure import Run
from tests.bench.surface_slack import bench_slack
from tests.scale.servers import free_port, redis_server

Bench = Callable[[bool, int, int, str, Path], Awaitable[Run]]
SURFACES: dict[str, Bench] = {"discord": bench_discord, "slack": bench_slack}
TARGETS = {"discord": 1.5, "slack": 1.25}  # ours over the bare bot's CPU per click
REDIS_TARGET_US = 40.0
LATENCY_TARGET = 2.0


def ratio(ours: float, bare: float) -> float:
    """Ours over the bare bot's; not a number where the bare bot's figure read zero."""
    return ours / bare if bare > 0 else math.nan


def ratios(ours: dict[str, float], bare: dict[str, float]) -> dict[str, float]:
    names = {"bot_cpu": "bot_cpu_us_per_click", "p50": "p50_ms", "p99": "p99_ms",
             "clicks_per_second": "clicks_per_second"}  # fmt: skip
    return {name: ratio(ours[figure], bare[figure]) for name, figure in names.items()}


async def compare(surface: str, games: int, in_flight: int, workdir: Path) -> dict[str, object]:
    """Ours, then the bare bot, on one fresh Redis each (so Redis's figures are the bot's)."""
    bench = SURFACES[surface]
    runs: dict[str, Run] = {}
    for name, bare in (("ours", False), ("bare", True)):
        with redis_server(workdir / f"redis-{surface}-{name}", free_port()) as server:
            runs[name] = await bench(bare, games, in_flight, server.url, workdir)
    ours, bare = runs["ours"].figures(), runs["bare"].figures()
    return {
        "ours": ours, "bare": bare, "ours_over_bare": ratios(ours, bare),
        "redis_commands_per_click": runs["ours"].commands_per_click(),
        "targets": {"bot_cpu": TARGETS[surface], "p99": LATENCY_TARGET,
                    "redis_cpu_us_per_click": REDIS_TARGET_US},
    }  # fmt: skip


def show(surface: str, report: dict[str, object]) -> None:
    print(f"== {surface}")
    for side in ("ours", "bare", "ours_over_bare", "redis_commands_per_click"):
        figures = report[side]
        assert isinstance(figures, dict)
        print(f"  {side}:")
        for name, value in figures.items():
            print(f"    {name:>28}: {value:12,.3f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--surface", choices=[*SURFACES, "both"], default="both")
    parser.add_argument("--games", type=int, default=40, help="solo games per bot (default 40)")
    parser.add_argument("--in-flight", type=int, default=4, help="games played at once")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--workdir", type=Path, help="keep the logs here (default: a temp dir)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.in_flight < 1:
        parser.error("--games and --in-flight must be at least 1")
    surfaces = list(SURFACES) if args.surface == "both" else [args.surface]
    report: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="bench-surface-") as temporary:
        workdir = args.workdir or Path(temporary)
        workdir.mkdir(parents=True, exist_ok=True)
        for surface in surfaces:
            found = asyncio.run(compare(surface, args.games, args.in_flight, workdir))
            show(surface, found)
            report[surface] = found
    if args.json:
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
