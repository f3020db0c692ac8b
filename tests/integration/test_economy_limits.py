"""Chip amounts: one limit on every grant, checked before Redis; no balance past exact doubles."""

from __future__ import annotations

from redis.asyncio import Redis

from core.game.numbers import MAX_AMOUNT, MAX_BALANCE
from core.service.api.commands import Grant
from core.service.features.gifts import Standing
from core.service.model.commit import Commit, CommitResult, Status
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from core.text.i18n import t
from tests.integration.manager_helpers import SCOPE, Table, manager


async def _snapshot(redis: Redis) -> dict[str, str]:
    keys = sorted(await redis.keys("*"))
    return {key: str(await redis.dump(key)) for key in keys}


async def test_a_grant_past_the_limit_names_the_range_and_changes_nothing(
    store: RedisStore, redis: Redis
) -> None:
    """`grant @bob 99999999999999999999999` (or 10**17, or 2**63-ish) is refused with the range;
    Redis never sees it."""
    table = Table(manager(store))
    before = await _snapshot(redis)
    for amount in (10**23, 9223372036854775000, 10**17, -(10**17), MAX_AMOUNT + 1):
        reply = await table.manager.handle(
            table.ctx("Admin", admin=True), Grant("bob", "Bob", amount, standing=Standing.MEMBER)
        )
        expected = t("en", "error.option.range", option="amount", value=amount,
                     min=-MAX_AMOUNT, max=MAX_AMOUNT)  # fmt: skip
        assert reply.private == expected and not reply.public
    assert await _snapshot(redis) == before


async def test_the_largest_grant_is_counted_exactly(store: RedisStore) -> None:
    """A grant at the limit lands exactly on the balance."""
    table = Table(manager(store))
    await table.manager.handle(
        table.ctx("Admin", admin=True), Grant("bob", "Bob", MAX_AMOUNT, standing=Standing.MEMBER)
    )
    assert (await store.balances(SCOPE, ["bob"]))["bob"] == 100 + MAX_AMOUNT


async def test_no_balance_grows_past_the_exact_limit(store: RedisStore, redis: Redis) -> None:
    """A grant that would lift a balance past MAX_BALANCE is refused and changes nothing."""
    await redis.hset(f"{SCOPE.tag}:bal", "bob", MAX_BALANCE - 10)
    table = Table(manager(store))
    reply = await table.manager.handle(
        table.ctx("Admin", admin=True), Grant("bob", "Bob", 11, standing=Standing.MEMBER)
    )
    assert reply.private == t("en", "error.chips.limit", player="Bob", balance=MAX_BALANCE - 10,
                              max=MAX_BALANCE)  # fmt: skip
    assert (await store.balances(SCOPE, ["bob"]))["bob"] == MAX_BALANCE - 10


class _EverChanging(RedisStore):
    """A store whose balances change under every grant (another admin keeps granting)."""

    def __init__(self, redis: Redis) -> None:
        super().__init__(redis)
        self.commits = 0

    async def commit(self, commit: Commit) -> CommitResult:
        self.commits += 1
        return CommitResult(status=Status.BALANCES)


async def test_a_grant_racing_forever_gives_up_with_try_again(redis: Redis) -> None:
    """A grant whose balance check fails every time stops after a few attempts: "try again"."""
    store = _EverChanging(redis)
    reply = await GameManager(store).handle(
        Table(manager(store)).ctx("Admin", admin=True),
        Grant("bob", "Bob", 5, standing=Standing.MEMBER),
    )
    assert reply.private == t("en", "error.busy")
    assert 1 < store.commits <= 10
