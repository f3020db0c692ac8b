"""What `bench_surface` measures around a run: a process's CPU time and resident memory from
/proc, Redis's CPU time, commands and execution time from INFO, and the figures of one run."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import statistics
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import redis

TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid: int) -> float:
    """CPU time of one process so far: the sum of its threads' run time in nanoseconds
    (/proc/PID/task/*/schedstat). A short run costs a bare bot less than one clock tick (10 ms),
    so the tick counts of /proc/PID/stat read zero; they are the fallback where the kernel keeps
    no schedstat."""
    try:
        threads = [t / "schedstat" for t in Path(f"/proc/{pid}/task").iterdir()]
        return sum(int(t.read_text(encoding="ascii").split()[0]) for t in threads) / 1e9
    except (OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS


def process_rss_mb(pid: int) -> float:
    """Resident memory of one process now, in MB (VmRSS of /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass(frozen=True)
class RedisSample:
    cpu: float  # seconds, user + system, the server process's own
    calls: dict[str, int]  # command -> calls so far
    usec: dict[str, int]  # command -> µs Redis spent executing it so far (scripts included)

    @classmethod
    def take(cls, client: redis.Redis) -> RedisSample:
        cpu = client.info("cpu")
        stats = client.info("commandstats")
        calls = {name.removeprefix("cmdstat_"): int(s["calls"]) for name, s in stats.items()}
        usec = {name.removeprefix("cmdstat_"): int(s["usec"]) for name, s in stats.items()}
        return cls(float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]), calls, usec)

    def since(self, before: RedisSample) -> tuple[float, dict[str, int], dict[str, int]]:
        """CPU seconds, calls and execution µs per command between two samples, leaving out
        the samples' own INFO calls."""
        calls = {k: v - before.calls.get(k, 0) for k, v in self.calls.items()}
        calls["info"] = calls.get("info", 0) - 2
        usec = {k: v - before.usec.get(k, 0) for k, v in self.usec.items() if k != "info"}
        kept = {k: v for k, v in calls.items() if v > 0}
        return self.cpu - before.cpu, kept, {k: v for k, v in usec.items() if k in kept}


@dataclass
class Run:
    """Clicks played by one bot: their latencies, and what they cost the bot and Redis."""

    latencies: list[float] = field(default_factory=list)  # seconds, click sent -> message edited
    seconds: float = 0.0
    bot_cpu: float = 0.0
    redis_cpu: float = 0.0
    redis_calls: dict[str, int] = field(default_factory=dict)
    redis_usec: dict[str, int] = field(default_factory=dict)  # execution time per command
    interactions: int = 0  # clicks and the commands that opened the games
    # The bot's resident memory at the start, when half the games are played, and at the end:
    # what the second half adds is what the process keeps beyond its warm-up.
    rss_mb: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def figures(self) -> dict[str, float]:
        clicks = len(self.latencies)
        ordered = sorted(self.latencies)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        commands = sum(self.redis_calls.values())
        return {
            "clicks": clicks,
            "clicks_per_second": clicks / self.seconds,
            "p50_ms": statistics.median(ordered) * 1000,
            "p99_ms": p99 * 1000,
            "bot_cpu_us_per_click": self.bot_cpu / self.interactions * 1e6,
            "redis_cpu_us_per_click": self.redis_cpu / self.interactions * 1e6,
            "redis_commands_per_click": commands / self.interactions,
            "redis_exec_us_per_click": sum(self.redis_usec.values()) / self.interactions,
            "bot_rss_mb_start": self.rss_mb[0],
            "bot_rss_mb_half": self.rss_mb[1],
            "bot_rss_mb_end": self.rss_mb[2],
        }

    def commands_per_click(self) -> dict[str, float]:
        return {k: round(v / self.interactions, 3) for k, v in sorted(self.redis_calls.items())}

    def exec_us_per_click(self) -> dict[str, float]:
        """Redis's execution time per click, command by command (INFO commandstats' usec)."""
        return {k: round(v / self.interactions, 3) for k, v in sorted(self.redis_usec.items())}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def wait_for_port(port: int, process: Process, within: float = 20.0) -> None:
    """Until the bot accepts connections on 127.0.0.1:`port` (it may not exit meanwhile)."""
    async with asyncio.timeout(within):
        while True:
            if process.returncode is not None:
                raise RuntimeError(f"the bot exited with {process.returncode}; see its log")
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            writer.close()
            return


async def stop(process: Process) -> None:
    """SIGTERM, and SIGKILL if it has not exited within 30 s."""
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), 30)
    except TimeoutError:
        process.kill()


async def measured(
    pid: int, client: redis.Redis, games: int, in_flight: int,
    play: Callable[[int, Run], Awaitable[None]],
) -> Run:  # fmt: skip
    """Play `games` games, `in_flight` at once (game i by `play(i, run)`), measuring the bot
    process `pid` and the Redis behind `client` over exactly that stretch."""
    run = Run()
    gate = asyncio.Semaphore(in_flight)
    played, rss_half = [0], [0.0]

    async def one(i: int) -> None:
        async with gate:
            await play(i, run)
        played[0] += 1
        if played[0] == max(1, games // 2):
            rss_half[0] = process_rss_mb(pid)

    loop = asyncio.get_running_loop()
    rss_start = process_rss_mb(pid)
    before, cpu_before, started = RedisSample.take(client), process_cpu_seconds(pid), loop.time()
    await asyncio.gather(*(one(i) for i in range(games)))
    run.seconds = loop.time() - started
    await asyncio.sleep(0.2)  # what follows the last click (a summary) is part of the cost
    run.bot_cpu = process_cpu_seconds(pid) - cpu_before
    run.redis_cpu, run.redis_calls, run.redis_usec = RedisSample.take(client).since(before)
    run.interactions = len(run.latencies) + games
    run.rss_mb = (rss_start, rss_half[0], process_rss_mb(pid))
    return run
