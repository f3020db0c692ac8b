"""The end-to-end benchmark (tests/bench/bench_surface.py) still runs: one game per bot on each
surface, ours and the bare bot's, and every figure it prints is there and sane."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bench.bench_surface import main

FIGURES = {"clicks", "clicks_per_second", "p50_ms", "p99_ms", "bot_cpu_us_per_click",
           "redis_cpu_us_per_click", "redis_commands_per_click"}  # fmt: skip


def test_the_surface_benchmark_measures_both_bots_on_both_surfaces(tmp_path: Path) -> None:
    """A solo game through the real `shutbox` process and a bare bot's game, on Discord and
    Slack: each run counts its clicks and the CPU they cost; ours goes through Redis's commit
    script, the bare bots never touch Redis."""
    out = tmp_path / "surface.json"
    main(["--games", "1", "--in-flight", "1", "--json", str(out), "--workdir", str(tmp_path)])
    report = json.loads(out.read_text())
    assert set(report) == {"discord", "slack"}
    for surface in report.values():
        for side in ("ours", "bare"):
            assert set(surface[side]) == FIGURES
            assert surface[side]["clicks"] >= 1
            assert surface[side]["bot_cpu_us_per_click"] > 0
        assert surface["redis_commands_per_click"]["evalsha"] >= 1
        assert surface["bare"]["redis_commands_per_click"] == 0
        assert surface["ours_over_bare"]["bot_cpu"] > 0
