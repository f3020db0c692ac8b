"""Board picture benchmark: milliseconds and bytes per frame for 9, 10 and 12 flaps.

Run `python -m tests.bench.bench_board [--frames N] [--json PATH]` from the project root. Each
frame is a different position of a played-out game (flaps tipped one by one, a roll of one to
three dice, the player and the pot), drawn uncached (`draw_png`: paste the sprites, write the
PNG), after the sprites were drawn once (`warm`), as a bot process does on its first picture.
It reports numbers only; nothing here asserts on time. The targets: 5 ms at p99 and 30 KB.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.game.rules import TILE_COUNTS
from core.text.drawn import DrawnBoard
from core.text.picture import board_png, draw_png, warm

PLAYERS = ("Åse", "Bjørn Ødegård", "Zoë", "Kåre 🎲", "Ingrid")
SEED = 25


def positions(tiles: int, frames: int) -> list[DrawnBoard]:
    """`frames` positions as games pass through them: flaps go down one at a time, new dice."""
    rng = random.Random(SEED + tiles)
    boards, mask, turn = [], (1 << tiles) - 1, 0
    for frame in range(frames):
        if frame % 6 == 0:  # a new game or the next player's box: every flap up
            mask, turn = (1 << tiles) - 1, turn + 1
        dice = tuple(
            rng.randint(1, 6) for _ in range(rng.choice((1, 2, 2, 3 if tiles == 12 else 2)))
        )
        boards.append(DrawnBoard(tiles, mask, dice, PLAYERS[turn % len(PLAYERS)], 10 * frame))
        mask &= ~(1 << rng.randrange(tiles))
    return boards


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure(tiles: int, frames: int) -> dict[str, float]:
    """Milliseconds per uncached frame (p50, p99, max; wall clock, and CPU time, which a busy
    machine does not inflate), bytes per PNG (mean, max), and a frame served from the cache."""
    boards = positions(tiles, frames)
    times, cpu, sizes = [], [], []
    for board in boards:
        start, started_cpu = time.perf_counter(), time.thread_time()
        png = draw_png(board)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - started_cpu) * 1000)
        sizes.append(len(png))
    board_png(boards[0])
    start = time.perf_counter()
    for _ in range(1000):
        board_png(boards[0])
    cached_ms = time.perf_counter() - start  # 1000 lookups, in seconds = ms each
    return {
        "p50_ms": percentile(times, 0.5), "p99_ms": percentile(times, 0.99), "max_ms": max(times),
        "cpu_p50_ms": percentile(cpu, 0.5), "cpu_p99_ms": percentile(cpu, 0.99),
        "mean_bytes": statistics.fmean(sizes), "max_bytes": max(sizes), "cached_ms": cached_ms,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=600, help="frames per box size")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    warm()
    print(f"sprites drawn once in {(time.perf_counter() - start) * 1000:.0f} ms")
    results = {str(tiles): measure(tiles, args.frames) for tiles in TILE_COUNTS}
    print(f"{'flaps':>5} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'cpu p50':>8} "
          f"{'cpu p99':>8} {'mean B':>8} {'max B':>8} {'cached ms':>10}")  # fmt: skip
    for tiles, numbers in results.items():
        print(
            f"{tiles:>5} {numbers['p50_ms']:7.2f} {numbers['p99_ms']:7.2f} "
            f"{numbers['max_ms']:7.2f} {numbers['cpu_p50_ms']:8.2f} {numbers['cpu_p99_ms']:8.2f} "
            f"{numbers['mean_bytes']:8,.0f} {numbers['max_bytes']:8,.0f} "
            f"{numbers['cached_ms']:10.4f}"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
