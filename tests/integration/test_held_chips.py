"""Chips at stake stay with their owner while they sit in a running staked game.

A pot game holds what the next ante needs; a Canoga game the whole balance. The commit script
checks the hold with the gift, so it holds across processes; it ends with the game or when the
player leaves it, and a hold whose game is gone is ignored.
"""

from __future__ import annotations

from redis.asyncio import Redis

from core.service.api.commands import Begin, Give, Join, Leave, Start, Stop
from core.service.features.gifts import Recipient, Standing
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Table, manager

DAN = Recipient("dan", "Dan", Standing.MEMBER)
POT_HELD = (
    "You’re seated in a staked match that holds 5 chips of yours for the next ante, "
    "so you can give at most {free} now."
)
CANOGA_HELD = (
    "You’re seated in a Canoga match, where your whole balance is at stake. "
    "You can give chips once it is over or you have left it."
)


async def _match(table: Table, stakes: str, *players: str) -> None:
    host, *others = players
    options = StartOptions(stakes=stakes, format="rounds:3")
    await table.manager.handle(table.ctx(host), Start(options))
    for player in others:
        await table.manager.handle(table.ctx(player), Join())
    table.last = await table.manager.handle(table.ctx(host), Begin())


async def _give(table: Table, user: str, amount: int) -> str:
    reply = await table.manager.handle(table.ctx(user), Give(DAN, amount))
    return reply.private or ""


async def test_a_pot_player_keeps_the_next_ante(store: RedisStore) -> None:
    """Ann (95 after the first ante of 5) can give 90, not 91: 5 stay for the next round."""
    table = Table(manager(store))
    await _match(table, "pot:5", "Ann", "Bob", "Cid")
    assert await _give(table, "Ann", 91) == POT_HELD.format(free=90)
    assert await _give(table, "Ann", 90) == "You gave Dan 90 chips. Your balance: 5."
    assert await _give(table, "Ann", 1) == POT_HELD.format(free=0)
    assert (await store.balances(SCOPE, ["ann"]))["ann"] == 5


async def test_the_issue_case_a_seated_player_cannot_empty_their_balance(store: RedisStore) -> None:
    """Bob passes the join check, then tries to give every chip away after Start: refused, in
    any process, and every later round still takes his ante."""
    table, other = Table(manager(store)), Table(manager(store))
    await _match(table, "pot:5", "Ann", "Bob", "Cid")
    assert await _give(other, "Bob", 95) == POT_HELD.format(free=90)
    await table.play_out()
    antes = [a async for s, t, a, _ in store.journal(SCOPE) if (s, t) == ("bob", "pot:c1")]
    assert antes == [5, 5, 5]
    assert (await store.verify_ledger(SCOPE)).ok


async def test_a_canoga_player_keeps_the_whole_balance_until_the_match_is_over(
    store: RedisStore,
) -> None:
    table = Table(manager(store))
    await _match(table, "canoga", "Ann", "Bob")
    assert await _give(table, "Ann", 1) == CANOGA_HELD
    assert await _give(table, "Cid", 1) == "You gave Dan 1 chip. Your balance: 99."  # not seated
    await table.play_out()
    balance = (await store.balances(SCOPE, ["ann"]))["ann"]
    assert await _give(table, "Ann", 1) == f"You gave Dan 1 chip. Your balance: {balance - 1}."
    assert (await store.verify_ledger(SCOPE)).ok


async def test_a_lobby_seat_holds_the_first_ante_and_leaving_releases_it(
    store: RedisStore,
) -> None:
    """In a staked lobby the first ante is held too (Start would take it); leave and it is free."""
    table = Table(manager(store))
    await table.manager.handle(table.ctx("Ann"), Start(StartOptions(stakes="pot:5")))
    await table.manager.handle(table.ctx("Bob"), Join())
    assert await _give(table, "Bob", 100) == POT_HELD.format(free=95)
    await table.manager.handle(table.ctx("Bob"), Leave())
    assert await _give(table, "Bob", 100) == "You gave Dan 100 chips. Your balance: 0."


async def test_leaving_or_stopping_a_running_match_releases_the_chips(store: RedisStore) -> None:
    table = Table(manager(store))
    await _match(table, "canoga", "Ann", "Bob", "Cid")
    await table.manager.handle(table.ctx("Cid"), Leave())
    assert await _give(table, "Cid", 10) == "You gave Dan 10 chips. Your balance: 90."
    assert await _give(table, "Bob", 10) == CANOGA_HELD
    await table.manager.handle(table.ctx("Mod", admin=True), Stop())
    assert (await _give(table, "Bob", 10)).startswith("You gave Dan 10 chips.")
    assert (await store.verify_ledger(SCOPE)).ok


async def test_a_hold_whose_game_is_gone_is_ignored(store: RedisStore, redis: Redis) -> None:
    """A game key removed behind the bot's back (e.g. by an operator) never freezes chips."""
    table = Table(manager(store))
    await _match(table, "canoga", "Ann", "Bob")
    await redis.delete(f"{SCOPE.tag}:game:c1")
    assert await _give(table, "Ann", 1) == "You gave Dan 1 chip. Your balance: 99."


async def test_unstaked_games_hold_nothing(store: RedisStore) -> None:
    table = Table(manager(store))
    await _match(table, "none", "Ann", "Bob")
    assert await _give(table, "Ann", 100) == "You gave Dan 100 chips. Your balance: 0."
