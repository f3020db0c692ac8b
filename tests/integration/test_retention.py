"""Retention (issue 23): per-channel review and rematch records and request records expire, set
by the commit that writes them; ended seasons' archives past the seasons kept are deleted when
a season ends, in the same step."""

from __future__ import annotations

from redis.asyncio import Redis

from core.service.api.commands import Click, Season
from core.service.features.rematch import LastMatch
from core.service.features.retention import RECORD_TTL
from core.service.model.commit import Commit, OpKind, StoreOp
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager
from tests.integration.test_rematch import finished_match

TAG = SCOPE.tag


async def test_a_finished_match_writes_its_records_with_a_lifetime(
    redis: Redis, store: RedisStore
) -> None:
    table = Table(manager(store))
    await finished_match(table)
    for key in ("review:c1", "rematch:c1"):
        assert RECORD_TTL - 5 <= await redis.ttl(f"{TAG}:{key}") <= RECORD_TTL, key
    requests = [key async for key in redis.scan_iter(match=f"{TAG}:req:*")]
    assert requests
    assert all(0 < ttl <= 3600 for ttl in [await redis.ttl(key) for key in requests])
    assert await redis.ttl(f"{TAG}:stats:ann") == -1  # a player's own numbers stay


async def test_a_rematch_record_an_older_version_kept_still_opens(
    redis: Redis, store: RedisStore
) -> None:
    """Moved from the one `rematch` hash: a record found there is honoured, and the old hash
    expires once a new record is written."""
    table = Table(manager(store))
    button = await finished_match(table)
    record = await redis.hget(f"{TAG}:rematch:c1", "m")
    await redis.delete(f"{TAG}:rematch:c1")
    await redis.hset(f"{TAG}:rematch", "c1", record)
    assert LastMatch.from_str(record).played("bob")
    reply = await table.manager.handle(table.ctx("Bob"), Click(button))
    assert reply.public[-1].startswith("🔁 Rematch! Bob opened a new lobby")
    ops = (StoreOp(OpKind.HSET, "rematch:c7", "m", record),
           StoreOp(OpKind.EXPIRE, "rematch", "", 60))  # fmt: skip
    await store.commit(Commit(SCOPE, ops=ops))
    assert 0 < await redis.ttl(f"{TAG}:rematch") <= 60


async def test_ending_a_season_deletes_the_archives_past_those_kept(redis: Redis) -> None:
    store = RedisStore(redis, seasons_kept=2)
    clock = Clock()
    table = Table(manager(store, clock=clock))
    for season in range(1, 5):
        clock.now += 3600  # a season begun moments ago is not ended again
        await store.commit(Commit(SCOPE, ops=(
            StoreOp(OpKind.ZINCRBY, "lb:wins", "ann", season),
            StoreOp(OpKind.HSET, "rating", "ann", "25.0 8.0")),
        ))  # fmt: skip
        await table.manager.handle(table.ctx("Admin", admin=True), Season(end=True))
    archives = sorted([key async for key in redis.scan_iter(match=f"{TAG}:season:*")])
    assert archives == [f"{TAG}:season:{n}:{name}" for n in (3, 4)
                        for name in ("lb:wins", "rating")]  # fmt: skip
    assert await redis.zscore(f"{TAG}:season:4:lb:wins", "ann") == 4


async def test_every_archive_stays_when_none_is_set(redis: Redis, store: RedisStore) -> None:
    clock = Clock()
    table = Table(manager(store, clock=clock))
    for _ in range(3):
        clock.now += 3600
        await store.commit(Commit(SCOPE, ops=(StoreOp(OpKind.ZINCRBY, "lb:wins", "ann", 1),)))
        await table.manager.handle(table.ctx("Admin", admin=True), Season(end=True))
    assert len([key async for key in redis.scan_iter(match=f"{TAG}:season:*")]) == 3
