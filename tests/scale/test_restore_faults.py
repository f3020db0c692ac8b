"""All or nothing with real processes (issue 31): a `shutbox restore` process that a Redis of
its own refuses half-way (its memory full) leaves that Redis without a key, says so in one
line, and the same file restores whole once there is room; a file edited by hand, its checksum
recomputed, is refused naming the key, before anything is written."""

from __future__ import annotations

from pathlib import Path

from redis.asyncio import Redis

from core.store.redis_store import RedisStore
from tests.e2e.slack.test_backup_during_play import shutbox
from tests.integration.test_backup import half_played, snapshot
from tests.integration.test_restore_checks import rewrite
from tests.scale.play import seats
from tests.scale.servers import free_port, redis_server

SERVERS = 120


async def test_a_restore_refused_half_way_leaves_nothing_and_runs_again_whole(
    redis: Redis, redis_url: str, store: RedisStore, tmp_path: Path
) -> None:
    await half_played(store, seats(SERVERS, 1, platform="full"), clicks=3)
    before = await snapshot(redis)
    path = tmp_path / "full.jsonl"
    code, out, err = await shutbox(tmp_path, redis_url, "backup", str(path))
    assert (code, err) == (0, ""), err

    with redis_server(tmp_path / "small", free_port()) as small:
        target = Redis(port=small.port, decode_responses=True)
        assert (await shutbox(tmp_path, small.url, "restore", str(path)))[0] == 0
        full = await used_memory(target)
        await target.flushall()
        empty = await used_memory(target)
        # room for about half of the data: some groups load, then one can't
        await target.config_set("maxmemory", str(empty + (full - empty) // 2))
        await target.config_set("maxmemory-policy", "noeviction")
        code, out, err = await shutbox(tmp_path, small.url, "restore", str(path))
        assert (code, out) == (1, ""), out
        assert err.startswith("shutbox: Redis refused: ") and "maxmemory" in err, err
        assert err.count("\n") == 1
        assert await target.dbsize() == 0, await target.keys("*")

        await target.config_set("maxmemory", "0")
        code, out, err = await shutbox(tmp_path, small.url, "restore", str(path))
        assert (code, err) == (0, "") and out.startswith(f"Restored {SERVERS} servers, "), err
        assert await snapshot(target) == before
        code, out, err = await shutbox(tmp_path, small.url, "ledger", "verify")
        assert (code, err) == (0, "") and out.count(": OK — ") == SERVERS, out
        await target.aclose()


async def used_memory(redis: Redis) -> int:
    return int((await redis.info("memory"))["used_memory"])


async def test_a_file_edited_by_hand_is_refused_naming_the_key(
    redis: Redis, redis_url: str, store: RedisStore, tmp_path: Path
) -> None:
    """As in the report: a balance made "abc" and a game record made "garbage"; the first of
    them in the file is named, exit code 2, and the Redis stays empty."""
    await half_played(store, seats(1, 1, platform="hand"), clicks=3)
    path = tmp_path / "edited.jsonl"
    assert (await shutbox(tmp_path, redis_url, "backup", str(path)))[0] == 0
    rewrite(path, {"stb:{hand:server0}:bal": ("ann", "abc"),
                   "stb:{hand:server0}:game:channel0": ("r", "garbage")})  # fmt: skip
    with redis_server(tmp_path / "empty", free_port()) as empty:
        code, out, err = await shutbox(tmp_path, empty.url, "restore", str(path))
        assert (code, out) == (2, "")
        assert err.startswith(f"shutbox: {path}: line ") and err.count("\n") == 1, err
        assert err.endswith(": stb:{hand:server0}:bal: the balance of ann is 'abc', not a whole "
                            "number of chips\n"), err  # fmt: skip
        target = Redis(port=empty.port, decode_responses=True)
        assert await target.dbsize() == 0
        await target.aclose()
