"""A member's data (issue 23): `user export` lists everything the bot holds about them, and
`user forget` leaves no trace of their id or name in any key or value while `ledger verify`
passes and everyone else's balance is unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from redis.asyncio import Redis

from core.service.api.commands import (
    AddBot,
    Begin,
    Challenge,
    Configure,
    Daily,
    Give,
    Grant,
    Join,
    Season,
    Start,
)
from core.service.features.audit import AuditEntry, read_entries
from core.service.features.gifts import Recipient, Standing
from core.service.model.settings import StartOptions
from core.store.member_data import MemberData, MemberPlaying
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Table, manager

MEMBER = Standing.MEMBER  # a member the platform confirmed

STAKED = StartOptions(format="rounds:2", stakes="pot:5")
ERASE = AuditEntry(1_800_000_000, "operator:ops", "operator:ops", "erase")


async def play_match(table: Table, host: str, guest: str) -> None:
    table.last = await table.manager.handle(table.ctx(host), Start(STAKED))
    await table.manager.handle(table.ctx(guest), Join())
    await table.manager.handle(table.ctx(host), AddBot())
    table.last = await table.manager.handle(table.ctx(host), Begin())
    await table.play_out()


async def a_season_of_zoequill(store: RedisStore) -> Table:
    """Zoequill plays, claims, is granted, gives, is an admin herself, and sees a season end."""
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Zoequill"), Daily())
    await play_match(table, "Zoequill", "Bob")
    admin = table.ctx("Admin", admin=True)
    await table.manager.handle(admin, Grant("zoequill", "Zoequill", 30, MEMBER))
    await table.manager.handle(admin, Season(end=True))
    table.channel = "c2"
    await play_match(table, "Bob", "Zoequill")
    await table.manager.handle(table.ctx("Zoequill"), Give(Recipient("bob", "Bob", MEMBER), 7))
    await table.manager.handle(table.ctx("Zoequill", admin=True), Grant("cid", "Cid", 5, MEMBER))
    await table.manager.handle(table.ctx("Zoequill", admin=True), Configure({"daily": "30"}))
    return table


async def everything(redis: Redis) -> list[tuple[str, str]]:
    """Every key of the database with each of its values as text."""
    found: list[tuple[str, str]] = []
    async for key in redis.scan_iter(count=1000):
        kind = await redis.type(key)
        values: Any
        if kind == "hash":
            values = [x for pair in (await redis.hgetall(key)).items() for x in pair]
        elif kind == "zset":
            values = await redis.zrange(key, 0, -1)
        elif kind == "list":
            values = await redis.lrange(key, 0, -1)
        elif kind == "set":
            values = list(await redis.smembers(key))
        elif kind == "stream":
            values = [f"{i} {fields}" for i, fields in await redis.xrange(key)]
        else:
            values = [await redis.get(key)]
        found += [(key, str(value)) for value in [key, *values]]
    return found


async def test_export_lists_every_record_of_the_member(redis: Redis, store: RedisStore) -> None:
    await a_season_of_zoequill(store)
    exported = await MemberData(redis).export(SCOPE, "zoequill")
    assert exported["names"] == ["Zoequill"]
    assert exported["balance"] == int(await redis.hget(f"{SCOPE.tag}:bal", "zoequill"))
    records = exported["records"]
    for key in (
        "names",
        "bal",
        "lb:chips",
        "daily",
        "stats:zoequill",
        "review:c1",
        "review:c2",
        "rematch:c1",
        "rematch:c2",
        "journal",
        "audit",
        "season:1:lb:wins",
        "rating",
        "season:1:rating",
    ):
        assert key in records, key
    assert records["names"] == {"zoequill": "Zoequill"}
    assert {e["why"] for e in records["journal"]} >= {"start", "daily", "game", "grant", "gift"}
    assert "bob" not in records["names"]  # only hers


async def test_forget_leaves_no_trace_and_the_ledger_sound(redis: Redis, store: RedisStore) -> None:
    table = await a_season_of_zoequill(store)
    before = await redis.hgetall(f"{SCOPE.tag}:bal")
    mint = int(before["mint"])
    chips = int(before["zoequill"])
    bob_stats = await redis.hgetall(f"{SCOPE.tag}:stats:bob")
    erased = await MemberData(redis).forget(SCOPE, "zoequill", ERASE)
    assert (erased.chips, erased.left) == (chips, ())
    assert erased.journal_entries > 0
    traces = [(k, v) for k, v in await everything(redis)
              if "zoequill" in v.lower()]  # fmt: skip
    assert traces == []
    after = await redis.hgetall(f"{SCOPE.tag}:bal")
    assert {a: b for a, b in after.items() if a != "mint"} == {
        a: b for a, b in before.items() if a not in ("mint", "zoequill")
    }
    assert int(after["mint"]) == mint + chips
    assert await redis.hgetall(f"{SCOPE.tag}:stats:bob") == bob_stats
    assert (await store.verify_ledger(SCOPE)).ok
    journal = await redis.xrange(f"{SCOPE.tag}:journal")
    assert journal[-1][1] == {"src": erased.pseudonym, "dst": "mint", "amt": str(chips),
                              "why": "erase", "ch": ""}  # fmt: skip
    latest = read_entries(await store.admin.audit_entries(SCOPE))
    assert (latest[0].action, latest[0].target) == ("erase", erased.pseudonym)
    assert "grant" in [e.action for e in latest]  # what admins did stays, pseudonymized
    # The member can come back: a new account, with the start chips.
    table.channel = "c3"
    await table.manager.handle(table.ctx("Zoequill"), Daily())
    assert int(await redis.hget(f"{SCOPE.tag}:bal", "zoequill")) == 100 + 30  # her daily=30
    assert (await store.verify_ledger(SCOPE)).ok


async def test_a_name_changed_since_is_found_in_the_rematch_records(
    redis: Redis, store: RedisStore
) -> None:
    """Zoequill was "Zee Q" when she last played in c2: that name goes too."""
    await a_season_of_zoequill(store)
    await redis.hset(f"{SCOPE.tag}:names", "zoequill", "Zoe Quill")
    members = MemberData(redis)
    assert await members.names(SCOPE, "zoequill") == ["Zoe Quill", "Zoequill"]
    await members.forget(SCOPE, "zoequill", ERASE)
    assert [kv for kv in await everything(redis) if "Zoe" in kv[1] or "zoequill" in kv[1]] == []


async def test_a_name_that_is_a_common_word_leaves_others_records_alone(
    redis: Redis, store: RedisStore
) -> None:
    """A member called "turns" (a word in every player's stats fields) and "Bobby" beside a
    "Bob": only the member's own records go."""
    table = Table(manager(store))
    await play_match(table, "Bob", "Bobby")
    await redis.hset(f"{SCOPE.tag}:names", "bobby", "turns")
    bob = await redis.hgetall(f"{SCOPE.tag}:stats:bob")
    assert any("turns" in field for field in bob)
    erased = await MemberData(redis).forget(SCOPE, "bobby", ERASE)
    assert erased.left == ()
    assert await redis.hgetall(f"{SCOPE.tag}:stats:bob") == bob
    assert await redis.hget(f"{SCOPE.tag}:names", "bob") == "Bob"
    assert (await store.verify_ledger(SCOPE)).ok


async def test_forget_survives_a_folded_journal(redis: Redis) -> None:
    """The checkpoint's line of the member moves to the pseudonym too."""
    store = RedisStore(redis, journal=(4, 2))
    await a_season_of_zoequill(store)
    assert await redis.hexists(f"{SCOPE.tag}:checkpoint", "b:zoequill")
    erased = await MemberData(redis).forget(SCOPE, "zoequill", ERASE)
    assert not await redis.hexists(f"{SCOPE.tag}:checkpoint", "b:zoequill")
    assert erased.left == ()
    assert (await store.verify_ledger(SCOPE)).ok


async def test_a_member_seated_in_a_running_game_is_not_erased(
    redis: Redis, store: RedisStore
) -> None:
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Zoequill"), Start(STAKED))
    held = await MemberData(redis).export(SCOPE, "zoequill")
    with pytest.raises(MemberPlaying) as refused:
        await MemberData(redis).forget(SCOPE, "zoequill", ERASE)
    assert refused.value.channel == "c1"
    assert await MemberData(redis).export(SCOPE, "zoequill") == held


async def test_an_unfinished_challenge_attempt_goes_with_the_member(
    redis: Redis, store: RedisStore
) -> None:
    """Her daily challenge, begun and left, moves no chips: forget erases it (the game, its
    deadline, the day's attempt) instead of refusing, and no key name or value holds her id."""
    table = Table(manager(store))
    await play_match(table, "Zoequill", "Bob")
    await table.manager.handle(table.ctx("Zoequill"), Challenge())
    games = [key async for key in redis.scan_iter(match=f"{SCOPE.tag}:game:challenge:*")]
    assert len(games) == 1 and games[0].endswith(":zoequill")
    erased = await MemberData(redis).forget(SCOPE, "zoequill", ERASE)
    assert erased.left == ()
    assert [kv for kv in await everything(redis) if "zoequill" in kv[1].lower()] == []
    assert (await store.verify_ledger(SCOPE)).ok


async def test_claims_named_after_the_member_go_whatever_they_hold(
    redis: Redis, store: RedisStore
) -> None:
    """A claim (`claim:ann:<request>:<user>`) holds "" until its winner notes something: its
    name alone makes it the member's."""
    table = Table(manager(store))
    await play_match(table, "Zoequill", "Bob")
    await store.claim(SCOPE, "ann:1733270400.1:1733270401.2:zoequill", 3600)
    await store.claim(SCOPE, "ann:1733270400.1:1733270401.3:bob", 3600)
    assert (await MemberData(redis).forget(SCOPE, "zoequill", ERASE)).left == ()
    assert [kv for kv in await everything(redis) if "zoequill" in kv[1].lower()] == []
    assert await redis.exists(f"{SCOPE.tag}:claim:ann:1733270400.1:1733270401.3:bob")
