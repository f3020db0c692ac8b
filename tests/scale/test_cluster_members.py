"""On a real Redis Cluster: the audit log, a member's export and erasure and the rate limits,
each in the server's one hash slot (issue 23)."""

from __future__ import annotations

from redis.asyncio.cluster import RedisCluster

from core.game.dice import SeededDice
from core.service.api.commands import Configure, Daily, Give, Grant
from core.service.features.audit import AuditEntry, read_entries
from core.service.features.gifts import Recipient, Standing
from core.service.model.context import Context
from core.service.model.rate_limits import Limit
from core.service.pipeline.manager import GameManager
from core.service.pipeline.rate_limit import RateLimits
from core.store.member_data import MemberData
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock

MEMBER = Standing.MEMBER  # a member the platform confirmed


def ctx(user: str, *, admin: bool = False) -> Context:
    return Context(SCOPE, "c1", user, user.title(), admin=admin)


async def test_audit_erasure_and_limits_on_a_cluster(client: RedisCluster) -> None:
    store = RedisStore(client)
    limits = RateLimits(store.admin, Limit(5, 30), None)
    manager = GameManager(store, clock=Clock(), dice=SeededDice(1), middleware=(limits,))
    await manager.handle(ctx("zoequill"), Daily())
    await manager.handle(ctx("zoequill"), Give(Recipient("bob", "Bob", MEMBER), 20))
    await manager.handle(ctx("admin", admin=True), Grant("zoequill", "Zoequill", 10, MEMBER))
    await manager.handle(ctx("admin", admin=True), Configure({"daily": "40"}))
    assert [e.action for e in read_entries(await store.admin.audit_entries(SCOPE))] == [
        "config", "grant"]  # fmt: skip
    replies = [await manager.handle(ctx("bob"), Daily()) for _ in range(6)]
    assert (replies[-1].private or "").startswith("You're going a bit fast; try again in ")
    members = MemberData(client)
    exported = await members.export(SCOPE, "zoequill")
    assert exported["balance"] == 100 + 25 - 20 + 10
    erased = await members.forget(SCOPE, "zoequill", AuditEntry(0, "ops", "ops", "erase"))
    assert erased.left == () and erased.chips == 115
    assert (await store.verify_ledger(SCOPE)).ok
    assert (await store.balances(SCOPE, ["bob"]))["bob"] == 100 + 20 + 40
