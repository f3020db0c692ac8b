"""GameCounter: scrapes share one SCAN per 30 s, and a failing Redis keeps the last count."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from bot.health import GAME_KEYS, GameCounter


@dataclass
class FakeRedis:
    keys: list[str] = field(default_factory=list)
    scans: int = 0
    broken: bool = False

    async def scan_iter(self, match: str, count: int) -> AsyncIterator[str]:
        assert match == GAME_KEYS
        self.scans += 1
        if self.broken:
            raise ConnectionError("gone")
        for key in self.keys:
            yield key


@dataclass
class Clock:
    now: float = 0.0

    def __call__(self) -> float:
        return self.now


async def test_counts_are_shared_for_the_ttl() -> None:
    """A second scrape within the TTL reuses the count; after it, Redis is scanned again."""
    redis, clock = FakeRedis(["a", "b"]), Clock()
    counter = GameCounter(redis, ttl=30, clock=clock)  # type: ignore[arg-type]
    assert await counter.count() == 2
    redis.keys.append("c")
    clock.now = 29
    assert await counter.count() == 2 and redis.scans == 1
    clock.now = 31
    assert await counter.count() == 3 and redis.scans == 2


async def test_a_failing_scan_keeps_the_last_count() -> None:
    """When Redis fails the scrape still answers, with the last count (None before any)."""
    redis, clock = FakeRedis(["a"], broken=True), Clock()
    counter = GameCounter(redis, ttl=30, clock=clock)  # type: ignore[arg-type]
    assert await counter.count() is None
    redis.broken, clock.now = False, 40
    assert await counter.count() == 1
    redis.broken, clock.now = True, 80
    assert await counter.count() == 1
