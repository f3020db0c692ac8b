"""The end-to-end benchmark (tests/bench/bench_surface.py) still runs: one game per bot on each
surface (Discord over the gateway and over HTTP, Slack), ours and the bare bot's, and every
figure it prints is there and sane."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bench.bench_surface import main

FIGURES = {"clicks", "clicks_per_second", "p50_ms", "p99_ms", "bot_cpu_us_per_click",
           "redis_cpu_us_per_click", "redis_commands_per_click", "redis_exec_us_per_click",
           "bot_rss_mb_start", "bot_rss_mb_half", "bot_rss_mb_end"}  # fmt: skip


def test_the_surface_benchmark_measures_both_bots_on_both_surfaces(tmp_path: Path) -> None:
    """A solo game through the real `shutbox` process and a bare bot's game, on Discord (both
    modes) and Slack: each run counts its clicks, the CPU they cost and the bot's memory; ours
    goes through Redis's commit script, which takes Redis time, the bare bots never touch Redis.
    Over HTTP ours is also set against the bare gateway bot."""
    out = tmp_path / "surface.json"
    main(["--games", "1", "--in-flight", "1", "--json", str(out), "--workdir", str(tmp_path)])
    report = json.loads(out.read_text())
    assert set(report) == {"discord", "discord-http", "slack"}
    for surface in report.values():
        for side in ("ours", "bare"):
            assert set(surface[side]) == FIGURES
            assert surface[side]["clicks"] >= 1
            assert surface[side]["bot_cpu_us_per_click"] > 0
            assert surface[side]["bot_rss_mb_end"] >= surface[side]["bot_rss_mb_start"] / 2 > 0
        assert surface["redis_commands_per_click"]["evalsha"] >= 1
        assert surface["redis_exec_us_per_click"]["evalsha"] > 0
        assert surface["bare"]["redis_commands_per_click"] == 0
        assert surface["ours_over_bare"]["bot_cpu"] > 0
    assert report["discord-http"]["ours_over_bare_gateway"]["bot_cpu"] > 0
