"""The audit log (issue 23): every admin action recorded with who, when and what, in the same
atomic step as the action, outside the journal's folding; `/shutbox audit` shows it to admins."""

from __future__ import annotations

from redis.asyncio import Redis

from core.service.api.commands import Audit, Configure, Grant, Join, Season, Start, Stop
from core.service.features.audit import AUDIT_KEY, AuditEntry, read_entries
from core.service.features.gifts import Standing
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager

MEMBER = Standing.MEMBER  # a member the platform confirmed

AUDIT = f"{SCOPE.tag}:{AUDIT_KEY}"


async def entries(store: RedisStore) -> list[AuditEntry]:
    return read_entries(await store.admin.audit_entries(SCOPE))


async def test_a_grant_names_the_admin_the_member_and_the_amount(store: RedisStore) -> None:
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await table.manager.handle(table.ctx("Admin", admin=True), Grant("bob", "Bob", 40, MEMBER))
    (entry,) = await entries(store)
    assert entry == AuditEntry(int(clock.now), "admin", "Admin", "grant", "bob", "Bob",
                               {"amount": 40, "balance": [100, 140]})  # fmt: skip


async def test_a_refused_grant_leaves_no_entry(store: RedisStore) -> None:
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Ann"), Grant("bob", "Bob", 40, MEMBER))  # not an admin
    await table.manager.handle(table.ctx("Admin", admin=True), Grant("bob", "Bob", -500, MEMBER))
    assert await entries(store) == []


async def test_a_config_change_records_old_and_new_values(store: RedisStore) -> None:
    table = Table(manager(store))
    admin = table.ctx("Admin", admin=True)
    await table.manager.handle(admin, Configure({"daily": "50", "lang": "da", "timer": "60"}))
    (entry,) = await entries(store)
    assert (entry.actor, entry.action) == ("admin", "config")
    assert entry.detail == {"daily": ["25", "50"], "lang": ["en", "da"]}  # timer was 60 already
    assert (await store.hash(SCOPE, "cfg"))["daily"] == "50"
    await table.manager.handle(table.ctx("Admin", admin=True), Configure({"daily": "50"}))
    assert len(await entries(store)) == 1  # nothing changed: nothing to record


async def test_a_season_end_is_recorded_with_or_without_a_chip_reset(store: RedisStore) -> None:
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await table.manager.handle(table.ctx("Admin", admin=True), Season(end=True))
    clock.now += 3600  # a season begun moments ago is not ended again (issue 20)
    await table.manager.handle(table.ctx("Admin", admin=True), Season(end=True, reset_chips=True))
    shown = await table.manager.handle(table.ctx("Admin", admin=True), Audit())
    assert shown.private is not None
    assert shown.private.splitlines()[1].endswith(
        " · Admin ended the season · reset_chips=yes season=2"
    )
    second, first = await entries(store)
    assert (first.action, first.actor, first.detail) == (
        "season_end",
        "admin",
        {"season": 1, "reset_chips": False},
    )
    assert second.detail == {"season": 2, "reset_chips": True}


async def test_a_season_ended_by_season_days_is_recorded_as_the_bot(store: RedisStore) -> None:
    clock = Clock()
    table = Table(manager(store, clock=clock))
    await table.manager.handle(table.ctx("Admin", admin=True), Configure({"season_days": "7"}))
    await table.manager.handle(table.ctx("Ann"), Season())
    clock.now += 8 * 24 * 3600
    await table.manager.handle(table.ctx("Ann"), Season())
    latest = (await entries(store))[0]
    assert (latest.action, latest.actor, latest.detail["season"]) == ("season_end", "system", 1)
    shown = await table.manager.handle(table.ctx("Admin", admin=True), Audit())
    assert shown.private is not None
    assert shown.private.splitlines()[1].endswith(
        " · The bot ended the season · season=1 season_days=7"
    )


async def test_an_admin_stopping_someone_elses_game_is_recorded(store: RedisStore) -> None:
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    await table.manager.handle(table.ctx("Bob"), Join())
    await table.manager.handle(table.ctx("Mod", admin=True), Stop())
    (entry,) = await entries(store)
    assert (entry.actor, entry.action, entry.target, entry.target_name) == (
        "mod",
        "stop",
        "ann",
        "Ann",
    )
    assert entry.detail["channel"] == "c1"
    assert await table.manager.current(table.ctx("Ann")) is None


async def test_a_host_stopping_their_own_game_is_not_an_admin_action(store: RedisStore) -> None:
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Ann", admin=True), Start(StartOptions()))
    await table.manager.handle(table.ctx("Ann", admin=True), Stop())
    assert await entries(store) == []


async def test_the_audit_outlives_the_journal_folding(redis: Redis) -> None:
    """Grants past the journal's bound fold it into the checkpoint; every audit entry stays."""
    store = RedisStore(redis, journal=(4, 2))
    table = Table(manager(store))
    for n in range(1, 13):  # each grant its own request
        grant = Grant(f"u{n}", f"U{n}", n, MEMBER)
        await table.manager.handle(table.ctx("Admin", admin=True), grant)
    assert await redis.hexists(f"{SCOPE.tag}:checkpoint", "entries")
    assert [e.target for e in await entries(store)] == [f"u{n}" for n in range(12, 0, -1)]
    assert (await store.verify_ledger(SCOPE)).ok


async def test_admins_read_the_latest_entries_in_chat_others_are_refused(
    store: RedisStore,
) -> None:
    table = Table(manager(store))
    empty = await table.manager.handle(table.ctx("Admin", admin=True), Audit())
    assert empty.private == "No admin actions recorded yet."
    await table.manager.handle(table.ctx("Admin", admin=True), Grant("bob", "Bob", 40, MEMBER))
    await table.manager.handle(table.ctx("Admin", admin=True), Configure({"daily": "50"}))
    shown = await table.manager.handle(table.ctx("Admin", admin=True), Audit())
    assert shown.public == ()
    assert shown.private is not None
    lines = shown.private.splitlines()
    assert lines[0].startswith("**Audit log** — the latest 2 admin actions, newest first")
    assert lines[1].endswith("· Admin changed settings · daily=25→50")
    assert lines[2].endswith("· Admin granted chips to Bob · amount=40 balance=100→140")
    refused = await table.manager.handle(table.ctx("Ann"), Audit())
    assert refused.private == "Only an admin can do that."


async def test_the_list_is_bounded_by_its_cap(redis: Redis, store: RedisStore) -> None:
    """Pushed past the cap, the oldest entries go (LTRIM in the same script)."""
    from core.service.features import audit
    from core.service.model.commit import Commit

    for n in range(5):
        entry = AuditEntry(n, "a", "A", "grant", f"u{n}", detail={"amount": n})
        op = audit.audit_op(entry)
        await store.commit(Commit(SCOPE, ops=(type(op)(op.kind, op.key, op.field, 3),)))
    assert await redis.llen(AUDIT) == 3
    assert [e.target for e in await entries(store)] == ["u4", "u3", "u2"]
