"""The whole click as an operator pays it: the real `shutbox discord` / `shutbox slack` process
against the project's loopback fakes, beside a bare bot on the same library driven by the same
fake, on a Redis of the benchmark's own.

    python -m tests.bench.bench_surface --surface slack --games 40 --in-flight 4 --json out.json

Surfaces: `discord` (the gateway), `discord-http` (DISCORD_MODE=http, beside a bare aiohttp +
PyNaCl app), `slack`; `both` runs the three. For each bot: clicks per second, p50/p99 click
latency (click sent until the message is edited or the interaction answered), the bot process's
CPU µs per click (/proc/PID), its resident memory at the start and end of the run, Redis's CPU
µs per click (INFO cpu), its execution µs per click (INFO commandstats' usec, scripts included)
and commands per click, each with what it is for; then ours over the bare bot's, and over HTTP
also ours over the bare gateway bot's of the same run.
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

from tests.bench.surface_discord import bench_discord, bench_discord_http
from tests.bench.surface_measure import Run
from tests.bench.surface_slack import bench_slack
from tests.scale.servers import free_port, redis_server

Bench = Callable[[bool, int, int, str, Path], Awaitable[Run]]
SURFACES: dict[str, Bench] = {
    "discord": bench_discord, "discord-http": bench_discord_http, "slack": bench_slack,
}  # fmt: skip
TARGETS = {"discord": 1.5, "discord-http": 2.5, "slack": 1.25}  # ours over the bare bot's CPU
HTTP_OVER_GATEWAY_TARGET = 1.0  # ours over HTTP over the bare gateway bot's CPU per click
REDIS_TARGET_US = 50.0  # Redis's execution time per click
LATENCY_TARGET = 2.0
# What each command a click causes is for (the rest appear only now and then)
PURPOSES = {
    "evalsha": "the commit script: version check, request id, state, chips, deadlines",
    "get": "a game not in the process's cache, or a request id looked up",
    "hgetall": "a server's settings, once per CONFIG_TTL",
    "hmget": "balances a staked game needs that the process does not hold",
    "zadd": "a deadline set outside the commit", "zrangebyscore": "the sweep's due timers",
    "zrange": "the sweep's due timers", "set": "a claim (the sweep's lease, a gateway mark)",
    "exists": "whether a key is there (a claim, a season)",
}  # fmt: skip


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
    for name, is_bare in (("ours", False), ("bare", True)):
        with redis_server(workdir / f"redis-{surface}-{name}", free_port()) as server:
            runs[name] = await bench(is_bare, games, in_flight, server.url, workdir)
    ours, bare = runs["ours"].figures(), runs["bare"].figures()
    return {
        "ours": ours, "bare": bare, "ours_over_bare": ratios(ours, bare),
        "redis_commands_per_click": runs["ours"].commands_per_click(),
        "redis_exec_us_per_click": runs["ours"].exec_us_per_click(),
        "targets": {"bot_cpu": TARGETS[surface], "p99": LATENCY_TARGET,
                    "redis_exec_us_per_click": REDIS_TARGET_US},
    }  # fmt: skip


def across_modes(report: dict[str, dict[str, object]]) -> None:
    """Over HTTP, our CPU per click also over the bare gateway bot's of the same run."""
    if "discord" not in report or "discord-http" not in report:
        return
    http, gateway = report["discord-http"], report["discord"]
    ours, bare = http["ours"], gateway["bare"]
    assert isinstance(ours, dict) and isinstance(bare, dict)
    found = ratio(ours["bot_cpu_us_per_click"], bare["bot_cpu_us_per_click"])
    http["ours_over_bare_gateway"] = {"bot_cpu": found}
    print(f"== discord-http over the bare gateway bot\n    {'bot_cpu':>28}: {found:12,.3f}"
          f"   (target {HTTP_OVER_GATEWAY_TARGET})")  # fmt: skip


def show(surface: str, report: dict[str, object]) -> None:
    print(f"== {surface}")
    sides = ("ours", "bare", "ours_over_bare", "redis_commands_per_click",
             "redis_exec_us_per_click")  # fmt: skip
    for side in sides:
        figures = report[side]
        assert isinstance(figures, dict)
        print(f"  {side}:")
        for name, value in figures.items():
            purpose = PURPOSES.get(name, "") if side == "redis_commands_per_click" else ""
            print(f"    {name:>28}: {value:12,.3f}  {purpose}".rstrip())


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
    report: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-surface-") as temporary:
        workdir = args.workdir or Path(temporary)
        workdir.mkdir(parents=True, exist_ok=True)
        for surface in surfaces:
            found = asyncio.run(compare(surface, args.games, args.in_flight, workdir))
            show(surface, found)
            report[surface] = found
    across_modes(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
