"""Every chip command's result is stored with its commit, like a game move's.

A delivery repeated after a crash (the first process applied the commit, then died before
answering or posting) gets the same receipt, and the channel's note is posted exactly once:
by the first delivery that gets to post it.
"""

from __future__ import annotations

import asyncio

import pytest

from core.service.api.commands import Command, Daily, Give, Grant
from core.service.features.gifts import Recipient, Standing
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Table, manager

BOB = Recipient("bob", "Bob", Standing.MEMBER)
COMMANDS: list[tuple[str, Command, str, tuple[str, ...]]] = [
    ("Ann", Give(BOB, 30), "You gave Bob 30 chips. Your balance: 70.",
     ("🎁 Ann gave Bob 30 chips.",)),
    ("Mod", Grant("bob", "Bob", 40, Standing.MEMBER),
     "Mod granted Bob 40 chips from the bank (balance 140).",
     ("Mod granted Bob 40 chips from the bank (balance 140).",)),
    ("Ann", Daily(), "You claimed 25 chips. You now have 125 chips.", ()),
]  # fmt: skip


@pytest.mark.parametrize(("user", "command", "receipt", "note"), COMMANDS)
async def test_a_retry_after_a_crash_gets_the_same_receipt_and_posts_the_note_once(
    store: RedisStore, user: str, command: Command, receipt: str, note: tuple[str, ...]
) -> None:
    """Process A applies the command and dies before answering; the platform's retry reaches
    process B: the same receipt, the note posted once (by B), nothing moved twice."""
    crashed, retry = Table(manager(store)), Table(manager(store))
    ctx = crashed.ctx(user, request="delivery-1", admin=user == "Mod")
    await crashed.manager.handle(ctx, command)  # applied; the answer never left process A
    balances = await store.balances(SCOPE, ["ann", "bob"])

    again = await retry.manager.handle(ctx, command)
    assert again.private == receipt
    assert await retry.manager.publishable(SCOPE, again) == note
    third = await retry.manager.handle(ctx, command)
    assert third.private == receipt
    assert await retry.manager.publishable(SCOPE, third) == ()
    assert await store.balances(SCOPE, ["ann", "bob"]) == balances
    assert (await store.verify_ledger(SCOPE)).ok


async def test_a_daily_claimed_twice_by_two_deliveries_pays_once(store: RedisStore) -> None:
    """The same daily delivered to two processes at once: one payment, one receipt for both."""
    one, two = Table(manager(store)), Table(manager(store))
    ctx = one.ctx("Ann", request="daily-twice")
    replies = await asyncio.gather(*(table.manager.handle(ctx, Daily()) for table in (one, two)))
    assert {r.private for r in replies} == {"You claimed 25 chips. You now have 125 chips."}
    assert await store.balances(SCOPE, ["ann"]) == {"ann": 125}
