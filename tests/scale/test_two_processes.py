"""Two bot processes on one Redis play the same staked games at once: nothing lost or doubled.

Each process (tests/scale/driver.py, a real OS process) has its own GameManager and presses
buttons of every game; some clicks reach both processes with the same request id. Afterwards
every commit either process applied is counted against the games' versions and the ledgers.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from core.game.dice import SeededDice
from core.service.model.commit import MINT
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.scale.play import PLAYERS, START_CHIPS, chips_of, fresh_record, open_match, seats

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = ("alpha", "beta")
SERVERS, CHANNELS, ROUNDS = 4, 6, 3
RUN_TIMEOUT = 60.0


@pytest.fixture
async def started_games(store: RedisStore) -> list[Any]:
    """24 staked three-round matches on 4 servers, begun and waiting for the first roll."""
    manager = GameManager(store, dice=SeededDice(11))
    tables = seats(SERVERS, CHANNELS, platform="two")

    async def open_server(server: str) -> None:
        # One channel at a time: the same two players ante in every channel of a server.
        for seat in (seat for seat in tables if seat.scope.server == server):
            await open_match(manager, seat, rounds=ROUNDS)

    await asyncio.gather(*(open_server(server) for server in {s.scope.server for s in tables}))
    return tables


@pytest.fixture
async def processes(
    redis_url: str, started_games: list[Any], tmp_path: Path
) -> AsyncIterator[list[tuple[asyncio.subprocess.Process, Path]]]:
    """The two bot processes, ready to go; killed on the way out whatever happened."""
    plan = tmp_path / "plan.json"
    rows = [[s.scope.platform, s.scope.server, s.channel] for s in started_games]
    plan.write_text(json.dumps({"seats": rows, "seed": 5, "max_clicks": 3000}))
    started: list[tuple[asyncio.subprocess.Process, Path]] = []
    try:
        for name in PROCESSES:
            out = tmp_path / f"{name}.json"
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.scale.driver", redis_url, str(plan), str(out), name,
                cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            )  # fmt: skip
            started.append((process, out))
        yield started
    finally:
        for process, _ in started:
            if process.returncode is None:
                process.kill()
            await process.wait()


async def run_together(processes: list[tuple[asyncio.subprocess.Process, Path]]) -> float:
    """Wait until both are ready, start them in the same instant, wait for both to finish."""
    for process, _ in processes:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), RUN_TIMEOUT)
        assert line.strip() == b"ready"
    loop = asyncio.get_running_loop()
    started = loop.time()
    for process, _ in processes:
        assert process.stdin is not None
        process.stdin.write(b"go\n")
        await process.stdin.drain()
    codes = await asyncio.wait_for(
        asyncio.gather(*(process.wait() for process, _ in processes)), RUN_TIMEOUT
    )
    assert codes == [0] * len(processes)
    return loop.time() - started


async def test_two_processes_lose_and_double_nothing(
    store: RedisStore,
    started_games: list[Any],
    processes: list[tuple[asyncio.subprocess.Process, Path]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every move applied exactly once, versions count the moves, chips are conserved."""
    versions_before = {
        (s.scope.server, s.channel): (await fresh_record(store, s)).version  # type: ignore[union-attr]
        for s in started_games
    }
    seconds = await run_together(processes)
    reports = [json.loads(out.read_text()) for _, out in processes]
    applied = [commit for report in reports for commit in report["applied"]]
    clicks = [click for report in reports for click in report["clicks"]]

    requests = Counter(commit["request_id"] for commit in applied)
    assert all(count == 1 for count in requests.values()), "a request applied twice"
    accepted = {click["request_id"] for click in clicks if click["accepted"]}
    assert accepted <= set(requests), "a click was answered as done but never applied"
    assert_versions_count_the_moves(applied, versions_before)
    for seat in started_games:
        assert await fresh_record(store, seat) is None, f"{seat} did not finish"
    await assert_chips_conserved(store, started_games)

    shared = Counter(c["request_id"] for c in clicks if c["shared"] and c["accepted"])
    with capsys.disabled():
        print(f"\ntwo processes: {len(applied)} moves applied in {seconds:.2f} s "
              f"({len(applied) / seconds:.0f} moves/s), {len(clicks)} clicks made, "
              f"{sum(1 for n in shared.values() if n == 2)} requests delivered to both "
              f"and answered by both")  # fmt: skip
    assert any(n == 2 for n in shared.values()), "no click reached both processes"


def assert_versions_count_the_moves(
    applied: list[dict[str, Any]], versions_before: dict[tuple[str, str], int]
) -> None:
    """Per game the applied commits step the version by one, from the start to the end."""
    by_game: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for commit in applied:
        by_game[(commit["server"], commit["channel"])].append(commit)
    assert set(by_game) == set(versions_before)
    for game, commits in by_game.items():
        commits.sort(key=lambda commit: commit["expected"])
        first = versions_before[game]
        assert [c["expected"] for c in commits] == list(range(first, first + len(commits)))
        assert all(c["version"] == c["expected"] + 1 for c in commits)
        assert [c["ended"] for c in commits].count(True) == 1 and commits[-1]["ended"]


async def assert_chips_conserved(store: RedisStore, tables: list[Any]) -> None:
    """Each server's journal replays to its balances; the players still hold every chip."""
    for scope in {seat.scope for seat in tables}:
        report = await store.verify_ledger(scope)
        assert report.ok and report.total == 0, report
        chips = await chips_of(store, scope)
        assert sum(chips[player] for player in PLAYERS) == START_CHIPS * len(PLAYERS)
        assert chips[MINT] == -START_CHIPS * len(PLAYERS)
        assert all(amount == 0 for name, amount in chips.items() if name.startswith("pot:"))
