"""`shutbox backup` and `shutbox restore`: the drill on a real Redis, staked matches running."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from core.game.dice import SeededDice
from core.service.pipeline.manager import GameManager
from core.store.deadlines import EPOCH_KEY
from core.store.redis_store import RedisStore
from tests.integration.cli import shutbox
from tests.scale.play import PLAYERS, START_CHIPS, Seat, chips_of, open_match, play_to_end, seats


async def snapshot(redis: Redis) -> dict[str, tuple[str, Any, bool]]:
    """Every key: its type, its value and whether it expires (read with plain commands).

    The due index's epochs are left out: a restore moves them on, on purpose (a sweep that read
    the index before must not overwrite what the restore entered).
    """
    found: dict[str, tuple[str, Any, bool]] = {}
    for key in sorted(set(await redis.keys("*")) - {EPOCH_KEY}):
        kind = await redis.type(key)
        readers = {"string": redis.get, "hash": redis.hgetall, "set": redis.smembers,
                   "list": lambda k: redis.lrange(k, 0, -1),
                   "zset": lambda k: redis.zrange(k, 0, -1, withscores=True),
                   "stream": redis.xrange}  # fmt: skip
        value = await readers[kind](key)
        if kind == "stream":
            value = (value, (await redis.xinfo_stream(key))["last-generated-id"])
        found[key] = (kind, value, await redis.pttl(key) > 0)
    return found


async def half_played(store: RedisStore, tables: list[Seat], clicks: int = 5) -> GameManager:
    """Staked matches open on every table, a few turns into each."""
    manager = GameManager(store, dice=SeededDice(11))
    for seat in tables:
        await open_match(manager, seat)
    for seat in tables:
        for _ in range(clicks):
            await _one_click(manager, seat)
    return manager


async def _one_click(manager: GameManager, seat: Seat) -> None:
    from core.service.api.commands import Click
    from tests.scale.play import fresh_record, turn_buttons

    record = await fresh_record(manager.store, seat)
    assert record is not None and record.state.to_act is not None
    await manager.handle(seat.ctx(record.state.to_act.id), Click(turn_buttons(record)[0]))


async def test_the_drill_backup_empty_restore_and_the_matches_finish(
    configured: str, redis: Redis, store: RedisStore, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Staked matches on three servers, backed up mid-match; Redis emptied and restored: every
    key, balance and game is as it was, the ledgers verify, and the matches play to the end,
    by the bot that was running (its cache) and by one started afresh."""
    tables = seats(3, 2, platform="drill")
    running = await half_played(store, tables)
    before = await snapshot(redis)
    path = tmp_path / "shutbox.backup"

    assert await shutbox("backup", str(path)) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Wrote {path}: 3 servers, ") and f"{path.stat().st_size:,} bytes" in out
    assert path.stat().st_mode & 0o777 == 0o600, "people's names and chips: the owner's eyes only"
    await redis.flushdb()
    assert await shutbox("restore", str(path)) == 0
    assert f"Restored 3 servers, {len(before) + 1} keys" in capsys.readouterr().out

    assert await snapshot(redis) == before
    assert await shutbox("ledger", "verify") == 0
    fresh = GameManager(RedisStore(redis), dice=SeededDice(12))
    for index, seat in enumerate(tables):
        assert await play_to_end(running if index % 2 else fresh, seat) > 0
    for scope in {seat.scope for seat in tables}:
        chips = await chips_of(store, scope)
        assert sum(chips[p] for p in PLAYERS) == START_CHIPS * len(PLAYERS)
        assert not [a for a, n in chips.items() if a.startswith("pot:") and n]
    assert await shutbox("ledger", "verify") == 0
    journal = await redis.xrange("stb:{drill:server0}:journal")
    old_last = before["stb:{drill:server0}:journal"][1][1]
    assert _id(journal[-1][0]) > _id(old_last), "new entries come after every restored one"


def _id(text: str) -> tuple[int, int]:
    milliseconds, sequence = text.split("-")
    return int(milliseconds), int(sequence)


async def test_restore_into_a_redis_with_the_bots_data_is_refused(
    configured: str, redis: Redis, store: RedisStore, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Without --replace, a Redis holding any bot key is left alone: exit 2, one line."""
    await half_played(store, seats(1, 1, platform="busy"), clicks=1)
    path = tmp_path / "b.jsonl"
    assert await shutbox("backup", str(path)) == 0
    await redis.hset("stb:{busy:server0}:bal", "ann", 999)
    before = await snapshot(redis)
    capsys.readouterr()
    assert await shutbox("restore", str(path)) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("shutbox: Redis already holds the bot's data (stb:") and err.count("\n") == 1
    )
    assert "add --replace to overwrite it" in err
    assert await snapshot(redis) == before


async def test_replace_makes_the_namespace_the_backups_and_leaves_other_keys(
    configured: str, redis: Redis, store: RedisStore, tmp_path: Path,
) -> None:  # fmt: skip
    """--replace: changed keys come back, keys and servers the file lacks go; keys outside the
    bot's namespace stay."""
    await half_played(store, seats(2, 1, platform="swap"), clicks=2)
    path = tmp_path / "b.jsonl.gz"
    assert await shutbox("backup", str(path)) == 0
    gzip.decompress(path.read_bytes())  # really compressed
    before = await snapshot(redis)
    await half_played(store, seats(1, 1, platform="later"), clicks=1)
    await redis.hset("stb:{swap:server0}:bal", "ann", 999)
    await redis.set("stb:{swap:server1}:stray", "x")
    await redis.set("not-ours", "kept")
    assert await shutbox("restore", str(path), "--replace") == 0
    after = await snapshot(redis)
    assert after.pop("not-ours") == ("string", "kept", False)
    assert after == before
    assert await shutbox("ledger", "verify") == 0
