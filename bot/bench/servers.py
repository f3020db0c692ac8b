"""What `shutbox bench` measures besides clicks: idle sweeps over many servers, journal size.

`--servers N` spreads the games over N servers; the servers without a game are registered as
known (`stb:servers`, as a server that once had a game stays), so the sweep faces all N. What the
bench added there and to the due index is removed again afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from redis.asyncio import Redis

from core.service.model.commit import Scope
from core.service.pipeline.manager import GameManager
from core.store.deadlines import DUE_KEY, EPOCH_KEY
from core.store.redis_store import SERVERS_KEY

CHUNK = 10_000  # members per SADD / SREM: big enough to be quick, small enough not to block
IDLE_SWEEPS = 5  # sweeps measured while every game waits; their mean is the figure


def members(scopes: Iterable[Scope]) -> list[str]:
    return [f"{scope.platform}:{scope.server}" for scope in scopes]


async def register_known(redis: Redis, known: Sequence[str]) -> None:
    """Servers the bot has seen but that have no game now."""
    for start in range(0, len(known), CHUNK):
        await redis.sadd(SERVERS_KEY, *known[start : start + CHUNK])


async def forget(redis: Redis, known: Sequence[str], played: Sequence[str]) -> None:
    """Remove the bench's servers from the sets shared by every server."""
    for start in range(0, len(known), CHUNK):
        await redis.srem(SERVERS_KEY, *known[start : start + CHUNK])
    for start in range(0, len(played), CHUNK):
        chunk = played[start : start + CHUNK]
        await redis.zrem(DUE_KEY, *chunk)
        await redis.hdel(EPOCH_KEY, *chunk)


async def commands_run(redis: Redis) -> int:
    """Commands the server ran so far (INFO commandstats), INFO itself left out."""
    stats = await redis.info("commandstats")
    return sum(int(row["calls"]) for name, row in stats.items() if name != "cmdstat_info")


async def sweep_commands_per_second(
    redis: Redis, manager: GameManager, platform: str, every: float = 1.0
) -> float:
    """Commands one process's sweep sends per second (one sweep each `every` s), none due.

    Counted on the server: on a server shared with other clients the figure includes theirs.
    """
    before = await commands_run(redis)
    for _ in range(IDLE_SWEEPS):
        await manager.sweep(platform)
    per_sweep = (await commands_run(redis) - before) / IDLE_SWEEPS
    return round(per_sweep / every, 1)


async def journal_bytes(redis: Redis, scopes: Iterable[Scope]) -> int:
    """MEMORY USAGE of the servers' journals, in bytes."""
    total = 0
    for scope in scopes:
        total += int(await redis.memory_usage(f"{scope.tag}:journal") or 0)
    return total
