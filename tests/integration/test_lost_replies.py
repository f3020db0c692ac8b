"""A commit whose reply was lost is looked up, never guessed: applied once, or void for good."""

from __future__ import annotations

from dataclasses import replace

from core.service.api.commands import Grant
from core.service.features.gifts import Standing
from core.service.model.commit import Commit, CommitResult, Status
from core.store.redis_store import OutcomeUnknown, RedisStore
from tests.integration.manager_helpers import SCOPE as TABLE_SCOPE
from tests.integration.manager_helpers import Table, manager
from tests.integration.store.helpers import SCOPE, new_game, next_move
from tests.integration.test_manager import _lobby


async def test_an_applied_commit_resolves_to_its_own_result(store: RedisStore) -> None:
    commit = new_game(request_id="req-1", result='{"private":"opened"}')
    assert (await store.commit(commit)).status is Status.OK

    found = await store.resolve(commit)

    assert found.status is Status.DUPLICATE
    assert found.applied_by == commit.attempt and found.result == '{"private":"opened"}'


async def test_a_commit_declared_void_can_never_apply_late(store: RedisStore) -> None:
    """Redis ran the lookup first: the attempt still on its way is refused when it arrives."""
    commit = new_game(request_id="req-2")
    assert (await store.resolve(commit)).status is Status.VOID

    late = await store.commit(commit)

    assert late.status is Status.VOID
    assert await store.load(SCOPE, "c1") is None
    assert await store.balances(SCOPE, ["ann", "ben"]) == {}


async def test_a_new_attempt_of_a_voided_request_still_applies_once(store: RedisStore) -> None:
    """The player (or the platform) tries the same request again: it applies, then only once."""
    first = new_game(request_id="req-3")
    await store.resolve(first)
    second = replace(first, attempt="second")
    assert (await store.commit(second)).status is Status.OK
    assert (await store.commit(first)).status is Status.DUPLICATE  # the late first attempt
    third = replace(next_move(1), request_id="req-3", attempt="third")
    assert (await store.commit(third)).status is Status.DUPLICATE
    stored = await store.load(SCOPE, "c1")
    assert stored is not None and stored.version == 1


async def test_a_duplicate_of_our_own_attempt_is_our_apply(store: RedisStore) -> None:
    """redis-py resends a command whose reply it lost: the resend reports our own apply."""
    commit = new_game(request_id="req-4")
    await store.commit(commit)
    again = await store.commit(commit)
    assert again.status is Status.DUPLICATE and again.applied_by == commit.attempt


async def test_the_manager_says_applied_or_not_as_redis_says(store: RedisStore) -> None:
    """A lost reply in the manager: Redis' answer decides what the player is told."""
    table = Table(manager(store))
    await _lobby(table, "Ann", "Bob")
    version = table.last.game.version  # type: ignore[union-attr]

    applied = FlakyStore.lose_reply_after_applying(store)
    table.manager.store, table.manager.resolve_pauses = applied, (0.0,)
    reply = await table.press("Ann", "Roll")
    assert reply.private == "The game store was slow to answer, but your move was applied."
    assert reply.game is not None and reply.game.version == version + 1

    table.manager.store = FlakyStore.lose_before_applying(store)
    before = table.last
    reply = await table.press("Ann")
    assert reply.private is not None and "nothing was changed" in reply.private
    stored = await store.load(TABLE_SCOPE, "c1")
    assert stored is not None and stored.version == version + 1
    assert before.game is not None and before.game.version == stored.version


class FlakyStore(RedisStore):
    """The real store, but the next commit's reply is lost (after or before it applied)."""

    apply_first = True

    @classmethod
    def lose_reply_after_applying(cls, store: RedisStore) -> FlakyStore:
        flaky = cls(store._redis)
        flaky.apply_first = True
        return flaky

    @classmethod
    def lose_before_applying(cls, store: RedisStore) -> FlakyStore:
        flaky = cls(store._redis)
        flaky.apply_first = False
        return flaky

    async def commit(self, commit: Commit) -> CommitResult:
        if self.apply_first:
            await super().commit(commit)
        raise OutcomeUnknown(commit)


async def test_a_grant_whose_reply_was_lost_is_reported_as_redis_says(store: RedisStore) -> None:
    """Chips too: a grant's lost reply is looked up; it applied once, or it did not at all."""
    table = Table(manager(store))
    admin = table.ctx("Ann", admin=True)

    table.manager.store, table.manager.resolve_pauses = (
        FlakyStore.lose_reply_after_applying(store),
        (0.0,),
    )
    reply = await table.manager.handle(admin, Grant("bob", "Bob", 40, standing=Standing.MEMBER))
    assert reply.private == "The game store was slow to answer, but it went through."
    assert await store.balances(TABLE_SCOPE, ["bob"]) == {"bob": 140}

    table.manager.store = FlakyStore.lose_before_applying(store)
    reply = await table.manager.handle(
        table.ctx("Ann", admin=True), Grant("bob", "Bob", 40, standing=Standing.MEMBER)
    )
    assert reply.private is not None and "nothing was changed" in reply.private
    assert await store.balances(TABLE_SCOPE, ["bob"]) == {"bob": 140}
