"""Backup files that are not whole are refused with one line; a group that grows while the backup
runs is read again; a backup of one Redis loads into the embedded one (Redis 6.2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from redis.asyncio import Redis

from bot.redis_server import EmbeddedRedis
from core.store.backup import REREADS, NamespaceReader
from core.store.backup_file import BackupWriter, check, groups
from core.store.redis_store import RedisStore
from tests.integration.cli import shutbox
from tests.integration.test_backup import half_played, snapshot
from tests.scale.play import seats


@pytest.fixture
async def backup(configured: str, redis: Redis, store: RedisStore, tmp_path: Path) -> Path:
    """A whole backup of one server, then an empty Redis."""
    await half_played(store, seats(1, 1, platform="file"), clicks=2)
    path = tmp_path / "whole.jsonl"
    assert await shutbox("backup", str(path)) == 0
    await redis.flushdb()
    return path


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def _cut(path: Path) -> str:
    path.write_text("".join(_lines(path)[:-1]))
    return "no end line: the file is cut short or not a backup"


def _changed(path: Path) -> str:
    path.write_text(path.read_text().replace('"ann"', '"eve"', 1))
    return "the checksum does not match: the file was changed or damaged"


def _not_a_backup(path: Path) -> str:
    path.write_text("appendonly yes\n")
    return "not a shutbox backup (line 1 is not JSON)"


def _other_json(path: Path) -> str:
    path.write_text('{"hello": "world"}\n')
    return "not a shutbox backup (no shutbox-backup header)"


def _newer(path: Path) -> str:
    lines = _lines(path)
    lines[0] = lines[0].replace('"version":2', '"version":3')
    path.write_text("".join(lines))
    return "a backup of format version 3; this shutbox reads versions 1 to 2"


def _version_true(path: Path) -> str:
    lines = _lines(path)
    lines[0] = lines[0].replace('"version":2', '"version":true')
    path.write_text("".join(lines))
    return "a backup of format version True; this shutbox reads versions 1 to 2"


def _end_counts(path: Path) -> str:
    lines = _lines(path)
    lines[-1] = lines[-1].replace('"servers": 1', '"servers": "one"')
    path.write_text("".join(lines))
    return "the end line's counts are not numbers: the file is damaged"


def _bad_line(path: Path) -> str:
    lines = _lines(path)
    lines[1] = lines[1][: len(lines[1]) // 2] + "\n"
    path.write_text("".join(lines))
    return "line 2 is not JSON: the file is damaged"


def _foreign_key(path: Path) -> str:
    lines = _lines(path)
    record = json.loads(lines[2])  # line 2 opens the server's group
    record["key"] = "sessions:1"
    lines[2] = json.dumps(record) + "\n"
    path.write_text("".join(lines))
    return "line 3: its key is not one of the bot's (stb:...)"


def _binary(path: Path) -> str:
    path.write_bytes(b"\xff\xfe\x00garbage")
    return "can't be read (it is not text)"


def _empty(path: Path) -> str:
    path.write_text("")
    return "no end line: the file is cut short or not a backup"


def _missing(path: Path) -> str:
    path.unlink()
    return "can't be read (No such file or directory)"


@pytest.mark.parametrize("damage", [_cut, _changed, _not_a_backup, _other_json, _newer,
                                    _version_true, _end_counts, _bad_line, _foreign_key, _binary,
                                    _empty, _missing])  # fmt: skip
async def test_a_file_that_is_not_a_whole_backup_is_refused_with_one_line(
    backup: Path, redis: Redis, damage: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit 2, one line naming the file and what is wrong; Redis stays empty."""
    expected = damage(backup)  # type: ignore[operator]
    capsys.readouterr()
    assert await shutbox("restore", str(backup)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"shutbox: {backup}: {expected}") and err.count("\n") == 1, err
    assert await redis.dbsize() == 0


async def test_a_backup_with_no_directory_to_go_to_is_refused(
    configured: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await shutbox("backup", str(tmp_path / "nowhere" / "b.jsonl")) == 2
    assert capsys.readouterr().err == (
        f"shutbox: can't write {tmp_path}/nowhere/b.jsonl: {tmp_path}/nowhere is not a directory\n"
    )


async def test_a_backup_to_standard_output_is_refused(
    configured: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await shutbox("backup", "-") == 2
    assert capsys.readouterr().err == (
        "shutbox: backup writes a file, not standard output: give a file name\n"
    )


async def test_a_group_that_gains_a_key_during_the_backup_is_read_again(
    redis: Redis, store: RedisStore, tmp_path: Path
) -> None:
    """A game created between the SCAN and its server's read (a commit touching a key that was
    read and one that was not) ends up in the file with the rest of its server, as one moment."""
    await half_played(store, seats(2, 1, platform="grow"), clicks=1)
    path = tmp_path / "grow.jsonl"
    seen = 0
    game = await redis.hgetall("stb:{grow:server0}:game:channel0")  # a second such game
    with BackupWriter(path, "test") as out:
        async for group in NamespaceReader(redis).groups():
            out.add(group)
            seen += group.tag == "grow:server0"
            if seen == 1 and group.tag == "grow:server0":  # a commit lands right after the read
                pipe = redis.pipeline(transaction=True)
                pipe.hset("stb:{grow:server0}:game:new", mapping=game)
                pipe.hincrby("stb:{grow:server0}:bal", "ann", -5)
                await pipe.execute()
    summary = check(path)
    assert summary.copies["grow:server0"] == 2 and summary.copies["grow:server1"] == 1
    restored = {group.tag: group for group in groups(path, summary)}
    keys = {stored.key: stored.value for stored in restored["grow:server0"].keys}
    assert keys["stb:{grow:server0}:game:new"] == game
    assert keys["stb:{grow:server0}:bal"] == await redis.hgetall("stb:{grow:server0}:bal")
    assert summary.keys == sum(len(group.keys) for group in restored.values())


async def test_a_group_still_gaining_keys_after_the_last_round_is_named(
    redis: Redis, store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No round left to read it again: the reader names it, for the operator to hear of."""
    monkeypatch.setattr("core.store.backup.REREADS", 0)  # REREADS below: the module's own
    await half_played(store, seats(2, 1, platform="busy"), clicks=1)
    reader = NamespaceReader(redis)
    async for group in reader.groups():
        if group.tag == "busy:server0":
            await redis.set("stb:{busy:server0}:req:late", "x")
    assert reader.unsettled == ("busy:server0",)
    docs = (Path(__file__).parents[2] / "docs/operate/backup.md").read_text()
    assert f"after {REREADS + 1} readings" in " ".join(docs.split()), "the figure the docs quote"


async def test_a_backup_loads_into_the_embedded_redis_and_back(
    configured: str, redis: Redis, store: RedisStore, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Typed values, not DUMP payloads: a backup of this Redis restores into the embedded Redis
    6.2 (no REDIS_URL: SHUTBOX_DATA_DIR's server), and a backup of that one back again."""
    await half_played(store, seats(2, 2, platform="port"), clicks=3)
    before = await snapshot(redis)
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    assert await shutbox("backup", str(first)) == 0
    monkeypatch.delenv("REDIS_URL")
    monkeypatch.setenv("SHUTBOX_DATA_DIR", str(tmp_path / "embedded"))
    assert await shutbox("restore", str(first)) == 0
    assert await shutbox("ledger", "verify") == 0
    assert await shutbox("backup", str(second)) == 0
    async with EmbeddedRedis(tmp_path / "embedded") as server:
        embedded = Redis.from_url(server.url, decode_responses=True)
        assert await snapshot(embedded) == before
        await embedded.aclose()
    await redis.flushdb()
    monkeypatch.setenv("REDIS_URL", configured)
    assert await shutbox("restore", str(second)) == 0
    assert await snapshot(redis) == before


async def test_a_plain_file_named_gz_is_refused(
    backup: Path, redis: Redis, capsys: pytest.CaptureFixture[str]
) -> None:
    """A `.gz` name promises gzip: a plain file under it is refused, not half read."""
    named = backup.with_name("whole.jsonl.gz")
    backup.rename(named)  # noqa: ASYNC240 - a test set-up step, nothing else runs
    capsys.readouterr()
    assert await shutbox("restore", str(named)) == 2
    assert capsys.readouterr().err == (
        f"shutbox: {named}: can't be read (Not a gzipped file (b'{{\"'))\n"
    )
    assert await redis.dbsize() == 0
