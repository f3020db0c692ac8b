"""One `season end` ends one season, however many admins and processes send it at once, and
ending a season names the server's boards from known sets instead of scanning (real Redis)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from redis.asyncio import Redis

from core.game.options import every_rule_set
from core.service.api.commands import Begin, Join, Season, Start
from core.service.features.season_boards import season_boards
from core.service.model.commit import Commit, OpKind, Scope, StoreOp
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager

ROOT = Path(__file__).resolve().parents[2]
ENDED = "🏁 Season 1 is over; Season 2 starts now."
JUST = "Season 1 was ended moments ago; Season 2 has only just begun, so it goes on."


async def season_number(store: RedisStore) -> int:
    return int((await store.hash(SCOPE, "season"))["n"])


async def test_admins_ending_at_once_end_one_season(store: RedisStore) -> None:
    """Five admins through two processes at once: one announcement, Season 2, and the others
    are told why nothing happened."""
    clock = Clock()
    managers = [manager(store, clock=clock) for _ in range(2)]
    tables = [Table(managers[i % 2]) for i in range(5)]
    await tables[0].manager.handle(tables[0].ctx("Mod", admin=True), Season())  # Season 1 began
    clock.now += 3600
    replies = await asyncio.gather(
        *(
            t.manager.handle(t.ctx(f"Mod{i}", admin=True), Season(end=True))
            for i, t in enumerate(tables)
        )
    )
    assert sum(reply.public == (ENDED,) for reply in replies) == 1, replies
    others = [reply.private for reply in replies if not reply.public]
    assert len(others) == 4 and all(
        text in (JUST, "Season 1 has already ended.") for text in others
    ), others
    assert await season_number(store) == 2


async def test_an_end_read_after_another_end_waits_a_minute(store: RedisStore) -> None:
    """The second admin read Season 2 only after the first end: still refused, so no empty
    season is ended; a minute later an end is an end again."""
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await table.manager.handle(table.ctx("Mod", admin=True), Season())
    clock.now += 3600
    first = await table.manager.handle(table.ctx("Mod", admin=True), Season(end=True))
    assert first.public == (ENDED,)
    clock.now += 59
    second = await table.manager.handle(table.ctx("Eve", admin=True), Season(end=True))
    assert second.private == JUST and not second.public
    assert await season_number(store) == 2
    clock.now += 1
    third = await table.manager.handle(table.ctx("Eve", admin=True), Season(end=True))
    assert third.public == ("🏁 Season 2 is over; Season 3 starts now.",)


PROCESS = textwrap.dedent(
    """
    import asyncio, sys, time
    import redis.asyncio as aioredis
    from core.service.api.commands import Season
    from core.store.redis_store import RedisStore
    from tests.integration.manager_helpers import Clock, Table, manager

    async def main() -> None:
        client = aioredis.from_url(sys.argv[1], decode_responses=True)
        table = Table(manager(RedisStore(client), clock=Clock(float(sys.argv[3]))))
        while time.time() < float(sys.argv[2]):
            await asyncio.sleep(0.001)
        ctx = table.ctx(sys.argv[4], admin=True, request=f"end-{sys.argv[4]}")
        reply = await table.manager.handle(ctx, Season(end=True))
        print(repr(reply.public or reply.private))
        await client.aclose()

    asyncio.run(main())
    """
)


def test_two_real_processes_end_one_season(redis_url: str, redis: Redis) -> None:
    """Two OS processes send `season end` at the same instant: Season 2, one announcement."""
    start = Clock().now  # the `redis` fixture emptied the database
    go = time.time() + 2.0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", PROCESS, redis_url, str(go), str(start), f"Mod{n}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in (1, 2)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert all(run.returncode == 0 for run in runs), outputs
    said = [out.strip() for out, _ in outputs]
    assert sum(ENDED in text for text in said) == 1, said
    assert any(JUST in text or "already ended" in text for text in said), said


async def test_every_board_a_match_writes_is_archived_without_a_scan(
    store: RedisStore, redis: Redis
) -> None:
    """Boards of several rule sets and of another server: ending this server's season archives
    every one of its boards, touches none of the other server's, and never scans."""
    other = Scope("test", "other-guild")
    names = [f"lb:best:{rules.to_str()}" for rules in every_rule_set()[::9]]
    ops = [StoreOp(OpKind.ZINCRBY, name, "ann", 1) for name in (*names, "lb:wins", "lb:decisions")]
    await store.commit(Commit(SCOPE, ops=tuple(ops)))
    await store.commit(Commit(other, ops=tuple(ops)))
    scans: list[object] = []
    original = redis.scan_iter

    def counted(*args: object, **kwargs: object) -> object:
        scans.append(args)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    redis.scan_iter = counted  # type: ignore[method-assign]
    clock = Clock()
    table = Table(manager(store, clock=clock))
    ended = await table.manager.handle(table.ctx("Mod", admin=True), Season(end=True))
    assert ended.public == (ENDED,) and scans == []
    for name in (*names, "lb:wins", "lb:decisions"):
        assert await redis.exists(f"{SCOPE.tag}:season:1:{name}") == 1, name
        assert await redis.exists(f"{SCOPE.tag}:{name}") == 0, name
        assert await redis.exists(f"{other.tag}:{name}") == 1, name


@pytest.mark.parametrize("fmt", ["rounds:2", "long"])
async def test_the_boards_a_played_match_writes_are_all_known(
    store: RedisStore, redis: Redis, fmt: str
) -> None:
    """Every `lb:` key that playing a match (stats, reviews, ratings) writes is one the season
    end names, so none is left behind when a season ends."""
    table = Table(manager(store))
    options = StartOptions(format=fmt, tiles=12, dice=3) if fmt == "long" else StartOptions(
        format=fmt, preset="sailors", last_die=True)  # fmt: skip
    table.last = await table.manager.handle(table.ctx("Ann"), Start(options))
    await table.manager.handle(table.ctx("Bob"), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    await table.play_out()
    prefix = f"{SCOPE.tag}:"
    keys = [str(key).removeprefix(prefix) async for key in redis.scan_iter(match=f"{prefix}lb:*")]
    boards = {key for key in keys if key != "lb:chips"}
    assert boards and boards <= set(season_boards()), boards - set(season_boards())
