"""The drill with real processes: `shutbox backup`, `restore` and `ledger verify` as their own OS
processes, on the embedded Redis that a running `shutbox play` owns."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import redis.asyncio as aioredis

from core.game.dice import SeededDice
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.integration.test_backup import half_played, snapshot
from tests.scale.play import PLAYERS, START_CHIPS, chips_of, play_to_end, seats


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("REDIS_", "SHUTBOX_", "DISCORD_", "SLACK_"))}  # fmt: skip
    return env | {"SHUTBOX_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}


async def shutbox(cwd: Path, *argv: str) -> tuple[int, str, str]:
    """Run `shutbox ARGV` as its own process; its exit code, stdout and stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", *argv, cwd=cwd, env=_env(cwd / "data"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return int(process.returncode or 0), out.decode(), err.decode()


async def test_the_drill_with_real_processes_beside_a_running_bot(tmp_path: Path) -> None:
    """A bot process owns the embedded Redis; staked matches run on it. Backup (a process that
    shares that Redis), the Redis emptied, restore, verify: all as processes, all exit 0, the
    data as it was, the matches finish, and the bot process is still there and leaves cleanly."""
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "play", cwd=tmp_path, env=_env(tmp_path / "data"),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert bot.stdout is not None
    seen = b""
    while b"to leave" not in seen:
        seen += await asyncio.wait_for(bot.stdout.read(4096), 60)
    redis = aioredis.Redis(unix_socket_path=str(tmp_path / "data" / "redis.sock"),
                           decode_responses=True)  # fmt: skip
    store = RedisStore(redis)
    tables = seats(2, 1, platform="live")
    await half_played(store, tables, clicks=3)
    before = await snapshot(redis)

    code, out, err = await shutbox(tmp_path, "backup", "drill.jsonl.gz")
    assert (code, err) == (0, "") and out.startswith("Wrote drill.jsonl.gz: 2 servers, ")
    await redis.flushdb()
    code, out, err = await shutbox(tmp_path, "restore", "drill.jsonl.gz")
    assert (code, err) == (0, "") and out.startswith("Restored 2 servers, ")
    assert await snapshot(redis) == before
    code, out, err = await shutbox(tmp_path, "restore", "drill.jsonl.gz")
    assert code == 2 and err.startswith("shutbox: Redis already holds the bot's data")
    assert await shutbox(tmp_path, "ledger", "verify") == (
        0, "".join(f"live:server{n}: OK — {_entries(before, n)} journal entries replay to the "
                   "stored balances.\n" for n in range(2)), "",
    )  # fmt: skip

    manager = GameManager(store, dice=SeededDice(21))
    for seat in tables:
        assert await play_to_end(manager, seat) > 0
        chips = await chips_of(store, seat.scope)
        assert sum(chips[player] for player in PLAYERS) == len(PLAYERS) * START_CHIPS
    assert (await shutbox(tmp_path, "ledger", "verify"))[0] == 0
    await redis.aclose()
    assert bot.returncode is None, "the bot ran through it all"
    bot.send_signal(signal.SIGINT)
    await asyncio.wait_for(bot.communicate(), 60)
    assert bot.returncode == 0


def _entries(snapshot: dict[str, tuple[str, object, bool]], server: int) -> int:
    _, (entries, _), _ = snapshot[f"stb:{{live:server{server}}}:journal"]
    return len(entries)  # type: ignore[arg-type]
