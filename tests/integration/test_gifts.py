"""`/shutbox give`: one journaled movement of the giver's own chips, refused when it can't be."""

from __future__ import annotations

import asyncio

import pytest

from core.service.api.commands import Give
from core.service.features.gifts import GIFT_LIMIT, Recipient, Standing
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Table, manager

BOB = Recipient("bob", "Bob", Standing.MEMBER)


async def journal(store: RedisStore) -> list[tuple[str, str, int, str]]:
    return [(s, t, a, meta["why"]) async for s, t, a, meta in store.journal(SCOPE)]


async def test_a_gift_moves_chips_once_in_one_journal_entry(store: RedisStore) -> None:
    """Ann gives Bob 30: 70 and 130, one `gift` entry, the ledger replays to the balances."""
    table = Table(manager(store))
    reply = await table.manager.handle(table.ctx("Ann", request="gift-1"), Give(BOB, 30))
    assert reply.private == "You gave Bob 30 chips. Your balance: 70."
    assert reply.public == ("🎁 Ann gave Bob 30 chips.",)
    assert await store.balances(SCOPE, ["ann", "bob"]) == {"ann": 70, "bob": 130}
    assert [entry for entry in await journal(store) if entry[3] == "gift"] == [
        ("ann", "bob", 30, "gift")
    ]
    assert (await store.verify_ledger(SCOPE)).ok


async def test_the_same_delivery_twice_is_applied_once(store: RedisStore) -> None:
    """A repeated delivery of one give (same request id) moves nothing more; it gets the same
    receipt, and the channel's note is posted by whichever delivery comes first."""
    first, second = Table(manager(store)), Table(manager(store))
    done = await first.manager.handle(first.ctx("Ann", request="gift-2"), Give(BOB, 30))
    again = await second.manager.handle(second.ctx("Ann", request="gift-2"), Give(BOB, 30))
    assert again.private == done.private == "You gave Bob 30 chips. Your balance: 70."
    assert await first.manager.publishable(SCOPE, done) == ("🎁 Ann gave Bob 30 chips.",)
    assert await second.manager.publishable(SCOPE, again) == ()
    assert await store.balances(SCOPE, ["ann", "bob"]) == {"ann": 70, "bob": 130}
    assert len([e for e in await journal(store) if e[3] == "gift"]) == 1


async def test_two_gifts_racing_for_the_same_chips_never_overdraw(store: RedisStore) -> None:
    """Ann (100) gives 70 to Bob and 70 to Cid at once: one goes through, one is refused."""
    one, two = Table(manager(store)), Table(manager(store))
    replies = await asyncio.gather(
        one.manager.handle(one.ctx("Ann"), Give(BOB, 70)),
        two.manager.handle(two.ctx("Ann"), Give(Recipient("cid", "Cid", Standing.MEMBER), 70)),
    )
    texts = sorted(reply.private or "" for reply in replies)
    assert texts[0].startswith("You gave ") and texts[0].endswith("Your balance: 30.")
    assert texts[1] == "You have only 30 chips, so you can’t give 70."
    balances = await store.balances(SCOPE, ["ann", "bob", "cid"])
    assert balances["ann"] == 30 and sum(balances.values()) == 200  # the refused one has none
    assert (await store.verify_ledger(SCOPE)).ok


@pytest.mark.parametrize(
    ("recipient", "amount", "line"),
    [
        (BOB, 0, "You can only give more than 0 chips, not 0."),
        (BOB, -5, "You can only give more than 0 chips, not -5."),
        (
            BOB,
            GIFT_LIMIT + 1,
            f"You can give at most {GIFT_LIMIT:,} chips at once, not {GIFT_LIMIT + 1:,}.",
        ),
        (BOB, 101, "You have only 100 chips, so you can’t give 101."),
        (Recipient("ann", "Ann", Standing.MEMBER), 10, "You can’t give chips to yourself."),
        (Recipient("b0t", "Robo", Standing.BOT), 10, "Robo is a bot, and bots don’t keep chips."),
    ],
)
async def test_a_refused_gift_is_one_private_line_and_moves_nothing(
    store: RedisStore, recipient: Recipient, amount: int, line: str
) -> None:
    table = Table(manager(store))
    reply = await table.manager.handle(table.ctx("Ann"), Give(recipient, amount))
    assert reply.private == line and reply.public == ()
    assert [e for e in await journal(store) if e[3] == "gift"] == []
    assert await store.balances(SCOPE, ["bob"]) == {}
