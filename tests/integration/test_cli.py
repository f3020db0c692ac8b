"""The `shutbox bench` and `shutbox ledger verify` commands against a real Redis."""

from __future__ import annotations

import json
import shutil

import pytest
from redis.asyncio import Redis

from bot.cli import main
from core.game.settlement import Transfer
from core.service.model.commit import MINT, Commit, Journal
from core.store.deadlines import DUE_KEY
from core.store.redis_store import SERVERS_KEY, RedisStore
from tests.integration.cli import shutbox
from tests.integration.manager_helpers import SCOPE


async def _run(argv: list[str]) -> int:
    import asyncio

    return await asyncio.to_thread(main, argv)


async def test_bench_reports_one_round_trip_per_warm_click(
    configured: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A warm click costs one Redis round trip and one commit script."""
    assert await shutbox("bench", "--games", "20", "--actions", "200", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) >= {"actions_per_second", "p50_ms", "p99_ms", "round_trips_per_action",
                           "bytes_per_game"}  # fmt: skip
    assert report["actions"] == 200
    assert report["scripts_per_action"] == 1.0
    assert report["round_trips_per_action"] <= 1.05  # the first commit may load the script


# What must not change between runs (times do; a game key's size moves by a few bytes with its
# random id and clock-stamped fields).
# The round trips are left out: concurrent clicks' commits share a pipeline when they meet in
# flight (core/store/batching.py), so how many go out together depends on the scheduling.
COUNTS = ("games", "actions", "scripts_per_action")


async def test_bench_leaves_no_trace_and_counts_the_same_every_run(
    configured: str, redis: Redis, store: RedisStore, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two runs on the same Redis: the same counts (no replays of the first run's games), and
    afterwards no bench key, no bench server in `ledger verify`; real data is untouched."""
    grant = Commit(SCOPE, ensure_accounts=("ann",), transfers=(Transfer(MINT, "ann", 25),),
                   journal=Journal("grant"), request_id="g1")  # fmt: skip
    await store.commit(grant)
    before = sorted(await redis.keys("*"))
    reports = []
    for _ in range(2):
        assert await shutbox("bench", "--games", "12", "--actions", "150", "--json") == 0
        reports.append(json.loads(capsys.readouterr().out))
    first, second = ({k: r[k] for k in COUNTS} for r in reports)
    assert first == second
    assert reports[1]["scripts_per_action"] == 1.0
    assert all(0 < r["round_trips_per_action"] <= 1.0 for r in reports)
    assert sorted(await redis.keys("*")) == before
    assert await redis.smembers("stb:servers") == {"test:guild"}
    assert await shutbox("ledger", "verify") == 0
    assert "bench" not in capsys.readouterr().out


async def test_bench_baseline_and_servers_add_their_figures(
    configured: str,
    redis: Redis,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--baseline` adds the bare-EVALSHA rate and the click rate's share of it; `--servers`
    spreads the games over that many known servers and reports the idle sweep's commands and
    the journal's size; the bench leaves none of its servers in the shared sets."""
    monkeypatch.setattr("bot.bench.baseline.SERVER_CALLS", 2000)  # redis-benchmark, if present
    argv = ["bench", "--games", "20", "--actions", "200", "--servers", "500", "--baseline"]
    assert await shutbox(*argv, "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["servers"] == 500 and report["actions"] == 200
    assert report["baseline_per_second"] > 0
    assert report["ratio"] == round(report["actions_per_second"] / report["baseline_per_second"], 3)
    assert report["sweep_commands_per_second"] >= 1  # at least the one read of the due index
    assert report["journal_bytes_per_1000_actions"] >= 0
    if shutil.which("redis-benchmark"):
        assert report["redis_benchmark_per_second"] > 0
    assert await redis.scard(SERVERS_KEY) == 0 and await redis.zcard(DUE_KEY) == 0


async def test_bench_refuses_bad_servers_and_stakes(
    configured: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad `--servers` or `--stakes` is refused with exit code 2 and a line saying why."""
    assert await shutbox("bench", "--servers", "0") == 2
    assert "--servers: must be a whole number from 1 to 10000000" in capsys.readouterr().err
    assert await shutbox("bench", "--stakes", "bogus") == 2
    assert "--stakes: Unknown stakes “bogus”." in capsys.readouterr().err


async def test_ledger_verify_passes_then_catches_a_tampered_balance(
    configured: str, store: RedisStore, redis: Redis, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ledger verify` exits 0 when the journal replays to the balances, 1 when it does not."""
    grant = Commit(SCOPE, ensure_accounts=("ann",), transfers=(Transfer(MINT, "ann", 25),),
                   journal=Journal("grant"), request_id="g1")  # fmt: skip
    await store.commit(grant)
    assert await shutbox("ledger", "verify", "--server", "test:guild") == 0
    await redis.hincrby(f"{SCOPE.tag}:bal", "ann", 7)
    assert await shutbox("ledger", "verify") == 1
    assert "MISMATCH" in capsys.readouterr().out


@pytest.mark.parametrize("command", [["ledger", "verify"], ["bench", "--games", "1"]])
async def test_an_unreachable_redis_is_one_line_and_exit_1(
    command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A well-formed REDIS_URL where nothing listens: one line, no traceback, exit code 1."""
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/3")
    assert await shutbox(*command) == 1
    assert capsys.readouterr().err == "shutbox: REDIS_URL can't be reached\n"
