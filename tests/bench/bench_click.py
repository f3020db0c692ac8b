"""Click benchmark: where one click's time goes, and what a long match keeps in Redis.

Run `python -m tests.bench.bench_click [--clicks N] [--json PATH]` with `REDIS_URL` pointing at a
spare database (the games live in a namespace of their own and are deleted). It reports numbers
only; nothing here asserts on time.

- `click_us`, `commit_us`, `service_us`: clicks made one at a time (nothing queues), through the
  games of `shutbox bench`: a click's whole time, the part inside the store's commit (encoding,
  the script's round trip, decoding), and the rest: the service's own Python (engine, game view,
  narration, reviews, the plan of the write).
- `service_ceiling_per_second`: the clicks one process could make if the commit cost nothing,
  beside `bare_evalsha_per_second` (one call in flight) and their `ceiling_ratio`.
- `record_bytes_after_<n>`: MEMORY USAGE of a game's key after n clicks of a long match. A
  player's decisions past what a review lists are kept as one tally, so it levels off.
- `text_us_<kind>`: one catalog text, looked up once per language and key.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from redis.asyncio import Redis

from bot.bench.baseline import bare_evalsha_per_second
from bot.bench.games import run_bench
from core.service.model.commit import Commit, CommitResult
from core.store.redis_store import RedisStore
from core.text.i18n import t
from tests.bench.on_redis import bench_main

GAMES = 100
MATCH_LENGTHS = (20, 100, 300, 500)  # clicks per game; a 50-round match lasts about 800
TEXTS: dict[str, tuple[str, dict[str, object]]] = {
    "plain": ("ui.roll", {}),
    "placeholders": ("game.score_line", {"player": "Ann", "round": 3, "total": 40, "status": ""}),
    "plural": ("review.more", {"count": 12}),
}


class TimedStore(RedisStore):
    """The real store, adding up the time its commits take."""

    seconds = 0.0

    async def commit(self, commit: Commit) -> CommitResult:
        started = time.perf_counter()
        try:
            return await super().commit(commit)
        finally:
            TimedStore.seconds += time.perf_counter() - started


async def click_split(redis: Redis, clicks: int) -> dict[str, float]:
    """One click at a time: its time, the commit's part, and the service's part."""
    TimedStore.seconds = 0.0
    report = await run_bench(redis, GAMES, clicks, in_flight=1, store=TimedStore)
    click_us = 1e6 / report.actions_per_second
    # Opening the games commits too (three per game): count only the clicks' share.
    commit_us = 1e6 * TimedStore.seconds / (report.actions + 3 * GAMES)
    service_us = click_us - commit_us
    bare = await bare_evalsha_per_second(redis, clicks, in_flight=1)
    return {
        "click_us": round(click_us, 1),
        "commit_us": round(commit_us, 1),
        "service_us": round(service_us, 1),
        "service_ceiling_per_second": round(1e6 / service_us, 1),
        "bare_evalsha_per_second": bare,
        "ceiling_ratio": round(1e6 / service_us / bare, 3),
    }


async def record_bytes(redis: Redis) -> dict[str, float]:
    """A game's key after n clicks of a long match, for each n."""
    figures = {}
    for clicks in MATCH_LENGTHS:
        report = await run_bench(redis, 20, 20 * clicks)
        figures[f"record_bytes_after_{clicks}"] = report.bytes_per_game
    return figures


def text_times(calls: int) -> dict[str, float]:
    figures = {}
    for kind, (key, params) in TEXTS.items():
        started = time.perf_counter()
        for _ in range(calls):
            t("en", key, **params)
        figures[f"text_us_{kind}"] = round(1e6 * (time.perf_counter() - started) / calls, 2)
    return figures


async def measure(redis: Redis, clicks: int) -> dict[str, float]:
    split = await click_split(redis, clicks)
    return {**split, **await record_bytes(redis), **text_times(clicks * 10)}


def main(argv: list[str] | None = None) -> None:
    bench_main(__doc__ or "", measure, ("--clicks", 10000, "clicks timed one at a time"), argv)


if __name__ == "__main__":
    main()
