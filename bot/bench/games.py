"""Drive many concurrent channel games through one GameManager and measure it (`shutbox bench`).

Each game is a two-player match in its own channel; every action is a real button click through
`GameManager.click`, as an adapter would make it. Round trips and scripts are counted where the
client writes them to the socket, so they include everything the manager sent, not what we
think it sent (and not what other clients of a shared server sent).

A run lives in a namespace of its own (`stb:{bench-<random>:server<n>}:...`) that it deletes
when it ends, so real data never sees it, and every run starts from nothing: each game rolls
its own seeded dice and belongs to one worker, so the counts come out the same every run.
"""

from __future__ import annotations

import asyncio
import contextvars
import secrets
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from itertools import count
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection

from bot.bench.servers import (
    forget,
    journal_bytes,
    members,
    register_known,
    sweep_commands_per_second,
)
from core.game.dice import SeededDice
from core.service.api.commands import Begin, Click, Join, Start
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.ports import GameStore
from core.service.model.settings import StartOptions
from core.service.model.views import Reply
from core.service.pipeline.manager import GameManager
from core.store.redis_store import SERVERS_KEY, RedisStore

GAMES_PER_SERVER = 50
LONG_MATCH = "rounds:50"  # long enough that few games end during a run
IN_FLIGHT = 4  # clicks being handled at once (players acting at the same moment)
SCRIPT_COMMANDS = (b"EVALSHA", b"EVAL")
_playing: contextvars.ContextVar[str] = contextvars.ContextVar("bench_game", default="")


@dataclass(frozen=True, slots=True)
class BenchReport:
    games: int
    actions: int
    seconds: float
    actions_per_second: float
    p50_ms: float
    p99_ms: float
    round_trips_per_action: float  # request/response exchanges the client made
    scripts_per_action: float  # commit scripts the client sent (EVALSHA, EVAL)
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


class _DicePerGame:
    """Each game rolls its own seeded dice (the game being played is a context variable), so a
    game's rolls do not depend on how the workers' clicks interleave."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.games: dict[str, SeededDice] = {}

    def roll(self, count: int) -> tuple[int, ...]:
        game = _playing.get()
        dice = self.games.setdefault(game, SeededDice(f"{self.seed}:{game}"))
        return dice.roll(count)


async def run_bench(
    redis: Redis,
    games: int,
    actions: int,
    seed: int = 1,
    in_flight: int = IN_FLIGHT,
    servers: int | None = None,
    stakes: str | None = None,
    store: Callable[[Redis], GameStore] = RedisStore,
) -> BenchReport:
    """Open `games` matches, then make `actions` clicks over them, `in_flight` at a time; the
    run's keys are deleted afterwards, whatever happened.

    With `servers`, the games are spread over that many servers, all known to the sweep; with
    `stakes` (e.g. "pot:1") every round moves chips, so the journal grows as on a real server;
    `store` wraps the client (a benchmark may time the commits inside a click).
    """
    namespace = f"bench-{secrets.token_hex(4)}"
    servers = servers or -(-games // GAMES_PER_SERVER)
    known = members(Scope(namespace, f"server{i}") for i in range(servers))
    try:
        await register_known(redis, known)
        manager = GameManager(store(redis), dice=_DicePerGame(seed))
        # spread evenly: 50 games a server by default, one game every N/games servers with many
        homes = [Scope(namespace, f"server{i * servers // games}") for i in range(games)]
        report = await _measure(redis, manager, homes, actions, in_flight, stakes)
        sweeping = await sweep_commands_per_second(redis, manager, namespace)
        journal = await journal_bytes(redis, set(homes))
    finally:
        await forget(redis, known, known)
        await clean_up(redis, namespace)
    per_1000 = round(1000 * journal / report.actions, 1) if report.actions else 0.0
    return replace(report, servers=servers, sweep_commands_per_second=sweeping,
                   journal_bytes_per_1000_actions=per_1000)  # fmt: skip


async def _measure(
    redis: Redis,
    manager: GameManager,
    homes: list[Scope],
    actions: int,
    in_flight: int,
    stakes: str | None,
) -> BenchReport:
    """Open a game in each home, then the click phase: timed and counted."""
    requests = count()
    tables = [await _open(manager, home, i, requests, stakes) for i, home in enumerate(homes)]
    games = len(tables)
    workers = max(1, min(in_flight, games))
    # Open the pool's connections first: their handshakes are not the clicks' round trips.
    await asyncio.gather(*(redis.ping() for _ in range(workers)))
    latencies: list[float] = []
    with _counting_round_trips() as sent:
        started = time.perf_counter()
        await asyncio.gather(*(
            _worker(manager, tables[w::workers], _share(actions, workers, w), latencies, requests)
            for w in range(workers)
        ))  # fmt: skip
        seconds = time.perf_counter() - started
    size = await _bytes_per_game(redis, tables)
    return _report(games, latencies, seconds, (sent[0], sent[1]), size)


def _share(actions: int, workers: int, worker: int) -> int:
    """The clicks one worker makes: `actions` split as evenly as they go."""
    return actions // workers + (1 if worker < actions % workers else 0)


async def _worker(
    manager: GameManager, mine: list[_Game], clicks: int, latencies: list[float],
    requests: count[int],
) -> None:  # fmt: skip
    """One player's hands: this worker's games in turn, one click at a time."""
    for index in range(clicks):
        await _click(manager, mine[index % len(mine)], latencies, requests)


async def clean_up(redis: Redis, namespace: str) -> None:
    """Delete every key of the run's namespace and its entries in the servers set."""
    async for key in redis.scan_iter(match=f"stb:{{{namespace}:*", count=1000):
        await redis.unlink(key)
    members = [m async for m in redis.sscan_iter(SERVERS_KEY, match=f"{namespace}:*")]
    if members:
        await redis.srem(SERVERS_KEY, *members)


@contextmanager
def _counting_round_trips() -> Iterator[list[int]]:
    """Count every request the client writes to Redis (a pipeline is one), and the scripts."""
    counter = [0, 0]
    send, pack = AbstractConnection.send_packed_command, AbstractConnection.pack_command

    async def counted(self: AbstractConnection, *args: Any, **kwargs: Any) -> None:
        counter[0] += 1
        await send(self, *args, **kwargs)

    def packed(self: AbstractConnection, *args: Any) -> list[bytes]:
        name = args[0] if args else b""
        name = name.encode() if isinstance(name, str) else name
        counter[1] += isinstance(name, bytes) and name.upper() in SCRIPT_COMMANDS
        return pack(self, *args)

    AbstractConnection.send_packed_command = counted  # type: ignore[method-assign]
    AbstractConnection.pack_command = packed  # type: ignore[method-assign]
    try:
        yield counter
    finally:
        AbstractConnection.send_packed_command = send  # type: ignore[method-assign]
        AbstractConnection.pack_command = pack  # type: ignore[method-assign]


async def _open(
    manager: GameManager, scope: Scope, index: int, requests: count[int], stakes: str | None
) -> _Game:
    channel = f"channel{index}"
    _playing.set(channel)
    host = _ctx(scope, channel, "ann", requests)
    await manager.handle(host, Start(StartOptions(format=LONG_MATCH, stakes=stakes)))
    await manager.handle(_ctx(scope, channel, "bob", requests), Join())
    begun = await manager.handle(_ctx(scope, channel, "ann", requests), Begin())
    return _Game(scope, channel, begun)


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
    _playing.set(game.channel)
    started = time.perf_counter()
    reply = await manager.handle(ctx, Click(button))
    latencies.append(time.perf_counter() - started)
    if reply.game is not None:
        game.reply = reply


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
