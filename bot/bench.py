"""Drive many concurrent channel games through one GameManager and measure it (`shutbox bench`).

Each game is a two-player match in its own channel; every action is a real button click through
`GameManager.click`, as an adapter would make it. Round trips are counted on the Redis server
(`INFO commandstats`), so they include everything the manager sent, not what we think it sent.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from itertools import count
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection

from bot.bench_servers import (
    forget,
    journal_bytes,
    members,
    register_known,
    sweep_commands_per_second,
)
from core.commit import Scope
from core.dice import SeededDice
from core.manager.context import Context
from core.manager.manager import GameManager
from core.manager.settings import StartOptions
from core.store import GameStore
from core.views import Reply

GAMES_PER_SERVER = 50
LONG_MATCH = "rounds:50"  # long enough that few games end during a run
PLATFORM = "bench"
IN_FLIGHT = 4  # clicks being handled at once (players acting at the same moment)


@dataclass(frozen=True, slots=True)
class BenchReport:
    games: int
    actions: int
    seconds: float
    actions_per_second: float
    p50_ms: float
    p99_ms: float
    round_trips_per_action: float  # request/response exchanges the client made
    scripts_per_action: float  # commit scripts Redis ran (INFO commandstats, server side)
    bytes_per_game: float  # MEMORY USAGE of a game's key
    servers: int = 0  # the games were spread over this many servers (known to the sweep)
    sweep_commands_per_second: float = 0.0  # server side, one sweep a second, no game due
    journal_bytes_per_1000_actions: float = 0.0  # MEMORY USAGE of the journals, per 1000 clicks

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass(slots=True)
class _Game:
    scope: Scope
    channel: str
    reply: Reply
    busy: bool = False  # one click at a time per game, as one player at a time acts


async def run_bench(
    redis: Redis,
    games: int,
    actions: int,
    seed: int = 1,
    in_flight: int = IN_FLIGHT,
    servers: int | None = None,
    stakes: str | None = None,
) -> BenchReport:
    """Open `games` matches, then make `actions` clicks over them, `in_flight` at a time.

    With `servers`, the games are spread over that many servers, all known to the sweep; with
    `stakes` (e.g. "pot:1") every round moves chips, so the journal grows as on a real server.
    """
    servers = servers or -(-games // GAMES_PER_SERVER)
    manager = GameManager(GameStore(redis), dice=SeededDice(seed))
    requests = count()
    # spread evenly: 50 games a server by default, one game every N/games servers with many
    homes = [Scope(PLATFORM, f"server{index * servers // games}") for index in range(games)]
    tables = [await _open(manager, home, i, requests, stakes) for i, home in enumerate(homes)]
    played = sorted({table.scope for table in tables}, key=lambda scope: scope.server)
    known = members(Scope(PLATFORM, f"server{i}") for i in range(servers))
    await register_known(redis, known)
    try:
        report = await _measure(redis, manager, tables, actions, in_flight, requests)
        sweeping = await sweep_commands_per_second(redis, manager, PLATFORM)
        journal = await journal_bytes(redis, played)
    finally:
        await forget(redis, known, members(played))
    per_1000 = round(1000 * journal / report.actions, 1) if report.actions else 0.0
    return replace(report, servers=servers, sweep_commands_per_second=sweeping,
                   journal_bytes_per_1000_actions=per_1000)  # fmt: skip


async def _measure(
    redis: Redis,
    manager: GameManager,
    tables: list[_Game],
    actions: int,
    in_flight: int,
    requests: count[int],
) -> BenchReport:
    """The click phase: `actions` clicks, `in_flight` at a time, timed and counted."""
    games = len(tables)
    # Open the pool's connections first: their handshakes are not the clicks' round trips.
    await asyncio.gather(*(redis.ping() for _ in range(in_flight)))
    scripts_before = await _scripts(redis)
    latencies: list[float] = []
    queue = _click_queue(tables, actions)
    with _counting_round_trips() as trips:
        started = time.perf_counter()
        await asyncio.gather(
            *(_worker(manager, queue, latencies, requests) for _ in range(in_flight))
        )
        seconds = time.perf_counter() - started
    scripts = await _scripts(redis) - scripts_before
    size = await _bytes_per_game(redis, tables)
    return _report(games, latencies, seconds, (trips[0], scripts), size)


def _click_queue(tables: list[_Game], actions: int) -> asyncio.Queue[_Game]:
    """The games in turn, round and round, one entry per click to make."""
    queue: asyncio.Queue[_Game] = asyncio.Queue()
    for index in range(actions):
        queue.put_nowait(tables[index % len(tables)])
    return queue


async def _worker(
    manager: GameManager, queue: asyncio.Queue[_Game], latencies: list[float], requests: count[int]
) -> None:
    while not queue.empty():
        game = queue.get_nowait()
        if not game.busy:
            game.busy = True
            await _click(manager, game, latencies, requests)
            game.busy = False


@contextmanager
def _counting_round_trips() -> Iterator[list[int]]:
    """Count every request the client writes to Redis (a pipeline is one)."""
    counter = [0]
    original = AbstractConnection.send_packed_command

    async def counted(self: AbstractConnection, *args: Any, **kwargs: Any) -> None:
        counter[0] += 1
        await original(self, *args, **kwargs)

    AbstractConnection.send_packed_command = counted  # type: ignore[method-assign]
    try:
        yield counter
    finally:
        AbstractConnection.send_packed_command = original  # type: ignore[method-assign]


async def _open(
    manager: GameManager, scope: Scope, index: int, requests: count[int], stakes: str | None
) -> _Game:
    channel = f"channel{index}"
    host = _ctx(scope, channel, "ann", requests)
    await manager.start(host, StartOptions(format=LONG_MATCH, stakes=stakes))
    await manager.join(_ctx(scope, channel, "bob", requests))
    return _Game(scope, channel, await manager.begin(_ctx(scope, channel, "ann", requests)))


def _ctx(scope: Scope, channel: str, user: str, requests: count[int]) -> Context:
    return Context(scope, channel, user, user.title(), request_id=f"bench-{next(requests)}")


async def _click(
    manager: GameManager, game: _Game, latencies: list[float], requests: count[int]
) -> None:
    """The player to act presses the first button (Roll, or the first listed move)."""
    record = await manager.current(_ctx(game.scope, game.channel, "x", requests))
    if record is None or record.state.to_act is None or game.reply.game is None:
        return
    ctx = _ctx(game.scope, game.channel, record.state.to_act.id, requests)
    button = game.reply.game.rows[0][0].action_id
    started = time.perf_counter()
    reply = await manager.click(ctx, button)
    latencies.append(time.perf_counter() - started)
    if reply.game is not None:
        game.reply = reply


async def _scripts(redis: Redis) -> int:
    stats = await redis.info("commandstats")
    return sum(
        int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in ("evalsha", "eval")
    )


async def _bytes_per_game(redis: Redis, games: list[_Game]) -> float:
    sizes = [await redis.memory_usage(f"{g.scope.tag}:game:{g.channel}") or 0 for g in games[:100]]
    return statistics.fmean(sizes) if sizes else 0.0


def _report(
    games: int, latencies: list[float], seconds: float, sent: tuple[int, int], size: float
) -> BenchReport:
    done = len(latencies)
    ordered = sorted(latencies) or [0.0]
    return BenchReport(
        games=games,
        actions=done,
        seconds=round(seconds, 3),
        actions_per_second=round(done / seconds, 1) if seconds else 0.0,
        p50_ms=round(1000 * ordered[len(ordered) // 2], 3),
        p99_ms=round(1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 3),
        round_trips_per_action=round(sent[0] / done, 3) if done else 0.0,
        scripts_per_action=round(sent[1] / done, 3) if done else 0.0,
        bytes_per_game=round(size, 1),
    )
