"""A restore is all or nothing (issue 31): a group read twice loads its last reading whole, a
file whose values the bot could not read is refused naming the key before anything is written,
and `ledger verify` names what it cannot read instead of ending in a traceback."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from core.service.api.commands import Challenge
from core.store.backup import NamespaceReader, namespace_keys
from core.store.backup_file import BackupWriter, check
from core.store.redis_store import RedisStore
from core.store.restore import RESTORING_KEY
from tests.integration.cli import shutbox
from tests.integration.manager_helpers import Clock, manager
from tests.integration.test_backup import _one_click, half_played, snapshot
from tests.integration.test_challenge import NOON, play
from tests.integration.test_challenge import ctx as challenge_ctx
from tests.scale.play import seats

TAG = "twice:server0"



async def read_twice(
    redis: Redis, store: RedisStore, path: Path
) -> dict[str, tuple[str, Any, bool]]:
    """A file holding the server's group twice, back to back, a click apart (as a backup that
    reads a growing group again, twice in a row, writes it); the data as of the second read."""
    manager = await half_played(store, (tables := seats(1, 1, platform="twice")), clicks=2)
    reader = NamespaceReader(redis)
    with BackupWriter(path, "test") as out:
        out.add(await reader.read(TAG, (await namespace_keys(redis))[TAG]))
        await _one_click(manager, tables[0])  # a journal entry and a request more
        out.add(await reader.read(TAG, (await namespace_keys(redis))[TAG]))
    return await snapshot(redis)


def rewrite(path: Path, change: dict[str, tuple[str, str]], *, version: int = 2) -> None:
    """Change hash fields (key -> (field, value)), drop group lines for version 1, and write a
    checksum that fits again, as a careful hand would."""
    lines = path.read_text().splitlines(keepends=True)[:-1]
    out = []
    for number, text in enumerate(lines):
        record = json.loads(text)
        if number == 0:
            record["version"] = version
        if version == 1 and "group" in record:
            continue
        if record.get("key") in change:
            field, value = change[record["key"]]
            record["value"][field] = value
        out.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    digest = hashlib.sha256("".join(out).encode()).hexdigest()
    end = {"end": True, "servers": 1, "keys": 0, "sha256": digest}
    path.write_text("".join(out) + json.dumps(end) + "\n")


@pytest.mark.parametrize("version", [2, 1])
async def test_a_group_read_twice_back_to_back_restores_its_last_reading_whole(
    configured: str, redis: Redis, store: RedisStore, tmp_path: Path, version: int
) -> None:
    """Whatever the file's version, the two readings are never merged into one (the journal
    twice would not load) and the second is what Redis holds afterwards."""
    path = tmp_path / "twice.jsonl"
    after_second = await read_twice(redis, store, path)
    rewrite(path, {}, version=version)
    assert check(path).copies[TAG] == 2
    await redis.flushdb()
    assert await shutbox("restore", str(path)) == 0
    restored = await snapshot(redis)
    assert {k: v for k, v in restored.items() if TAG in k} == {
        k: v for k, v in after_second.items() if TAG in k
    }
    assert await shutbox("ledger", "verify") == 0


@pytest.mark.parametrize(
    ("key", "field", "value", "problem"),
    [
        ("bal", "ann", "abc", "the balance of ann is 'abc', not a whole number of chips"),
        ("game:channel0", "r", "garbage", "the game record does not parse (JSONDecodeError: "),
        ("game:channel0", "v", "x", "the game's version is 'x', not a whole number"),
    ],
)
async def test_a_value_the_bot_cant_read_is_refused_naming_its_key_and_nothing_is_written(
    configured: str, redis: Redis, store: RedisStore, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], key: str, field: str, value: str, problem: str,
) -> None:  # fmt: skip
    """The checksum fits (recomputed): the values themselves are checked, exit 2, one line."""
    path = tmp_path / "edited.jsonl"
    await read_twice(redis, store, path)
    rewrite(path, {f"stb:{{{TAG}}}:{key}": (field, value)})
    await redis.flushdb()
    capsys.readouterr()
    assert await shutbox("restore", str(path)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"shutbox: {path}: line ") and err.count("\n") == 1, err
    assert f": stb:{{{TAG}}}:{key}: {problem}" in err, err
    assert await redis.dbsize() == 0


async def test_ledger_verify_names_a_balance_that_is_not_a_number(
    configured: str, redis: Redis, store: RedisStore, capsys: pytest.CaptureFixture[str]
) -> None:
    await half_played(store, seats(1, 1, platform="bad"), clicks=1)
    ann = await redis.hget("stb:{bad:server0}:bal", "ann")
    await redis.hset("stb:{bad:server0}:bal", "ann", "abc")
    await redis.xadd("stb:{bad:server0}:journal", {"src": "mint", "dst": "bob", "amt": "lots"})
    capsys.readouterr()
    assert await shutbox("ledger", "verify") == 1
    out = capsys.readouterr().out
    assert out.startswith("bad:server0: UNREADABLE — bal ann holds 'abc', not a whole number "
                          f"(the journal gives {ann}); journal entry ")  # fmt: skip
    assert out.endswith(" is not a chip movement (src=mint dst=bob amt=lots)\n"), out


async def test_a_mismatch_says_the_sum_only_when_it_is_wrong(
    configured: str, redis: Redis, store: RedisStore, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seven chips moved by hand from Ann to Bob: the sum is still 0, and the line says so only
    by not saying otherwise; seven more made from nothing: the sum is named."""
    await half_played(store, seats(1, 1, platform="hand"), clicks=1)
    bal = "stb:{hand:server0}:bal"
    ann, bob = [int(await redis.hget(bal, who) or 0) for who in ("ann", "bob")]
    await redis.hincrby(bal, "ann", -7)
    await redis.hincrby(bal, "bob", 7)
    capsys.readouterr()
    assert await shutbox("ledger", "verify") == 1
    assert capsys.readouterr().out == (
        f"hand:server0: MISMATCH — ann: journal {ann}, stored {ann - 7}; bob: journal {bob}, "
        f"stored {bob + 7}\n"
    )
    await redis.hincrby(bal, "bob", 7)
    assert await shutbox("ledger", "verify") == 1
    assert capsys.readouterr().out.endswith(f"stored {bob + 14}; the balances sum to 7, not 0\n")


async def test_a_restore_that_did_not_finish_fails_verify_until_it_is_run_again(
    configured: str, redis: Redis, store: RedisStore, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """The marker a restore leaves while it puts keys into place: `ledger verify` fails on it,
    a restore without --replace says what to do, one with --replace finishes the job."""
    path = tmp_path / "b.jsonl"
    before = await read_twice(redis, store, path)
    await redis.flushdb()
    await redis.set(RESTORING_KEY, str(path))  # as a Redis gone mid-way leaves it
    capsys.readouterr()
    assert await shutbox("ledger", "verify") == 1
    assert capsys.readouterr().out == (
        f"A restore of {path} did not finish: this Redis holds part of it. Run "
        f"`shutbox restore {path} --replace` again.\n"
    )
    assert await shutbox("restore", str(path)) == 2
    assert capsys.readouterr().err == (
        f"shutbox: a restore of {path} into this Redis did not finish; run it again with "
        "--replace\n"
    )
    assert await shutbox("restore", str(path), "--replace") == 0
    assert {k: v for k, v in (await snapshot(redis)).items() if TAG in k} == {
        k: v for k, v in before.items() if TAG in k
    }
    assert not await redis.exists(RESTORING_KEY)
    assert await shutbox("ledger", "verify") == 0


async def test_a_key_twice_in_one_reading_is_refused_before_anything_is_written(
    configured: str, redis: Redis, store: RedisStore, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """A reading lists each key once, sorted: a line repeated inside its group is damage (its
    stream would be written twice), refused as such."""
    path = tmp_path / "doubled.jsonl"
    await read_twice(redis, store, path)
    lines = path.read_text().splitlines(keepends=True)
    journal = next(n for n, text in enumerate(lines) if ':journal"' in text)
    body = lines[:-1]
    body.insert(journal + 1, lines[journal])
    digest = hashlib.sha256("".join(body).encode()).hexdigest()
    path.write_text("".join(body) + json.dumps({"end": True, "sha256": digest}) + "\n")
    await redis.flushdb()
    capsys.readouterr()
    assert await shutbox("restore", str(path)) == 2
    assert capsys.readouterr().err == (
        f"shutbox: {path}: line {journal + 2}: stb:{{{TAG}}}:journal is out of order in its "
        "group: the file is damaged\n"
    )
    assert await redis.dbsize() == 0


async def test_ledger_verify_names_a_key_of_another_type(
    configured: str, redis: Redis, store: RedisStore, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not "Redis can't be reached": the key, and that its type is not the ledger's."""
    await half_played(store, seats(1, 1, platform="typed"), clicks=1)
    await redis.delete("stb:{typed:server0}:bal")
    await redis.set("stb:{typed:server0}:bal", "100")
    capsys.readouterr()
    assert await shutbox("ledger", "verify") == 1
    assert capsys.readouterr() == (
        "typed:server0: UNREADABLE — bal is a key of another type than the bot keeps there\n",
        "",
    )


async def test_a_day_of_challenges_restores_as_it_was(
    configured: str, redis: Redis, store: RedisStore, tmp_path: Path
) -> None:
    """What the checks read of a challenge (a finished attempt, one begun, the streaks, the
    games) is what the bot writes: such a backup is not refused."""
    m = manager(store, clock=Clock(NOON))
    await play(m, "Ann")
    await m.handle(challenge_ctx("Bob"), Challenge())  # begun, not finished
    before = await snapshot(redis)
    path = tmp_path / "day.jsonl"
    assert await shutbox("backup", str(path)) == 0
    await redis.flushdb()
    assert await shutbox("restore", str(path)) == 0
    assert await snapshot(redis) == before
