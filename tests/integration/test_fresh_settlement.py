"""Every settlement counts every seated staked player's balance as Redis holds it at the commit.

Two managers stand for two processes: one plays the match (and so caches the players'
balances), the other pays a player by `daily` meanwhile. The commit script checks every staker's
balance, a 0 included, and the playing manager settles again on the fresh ones (SPEC §4).
"""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from core.game.dice import SeededDice
from core.game.settlement import Transfer
from core.service.api.commands import Begin, Daily, Join, Leave, Start
from core.service.model.commit import Commit, Status
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager

SEED = 4  # a seed whose round-1 loser (left with 0 of 1 chip) loses round 2 again


async def _canoga_until_the_last_turn(store: RedisStore, start_chips: int) -> Table:
    """Ann and Bob in a two-round Canoga match, round 2 played up to its last turn."""
    await store.set_fields(SCOPE, "cfg", {"start_chips": str(start_chips)})
    table = Table(manager(store, dice=SeededDice(SEED)))
    options = StartOptions(stakes="canoga", format="rounds:2")
    await table.manager.handle(table.ctx("Ann"), Start(options))
    await table.manager.handle(table.ctx("Bob"), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    while True:
        record = await table.manager.current(table.ctx("x"))
        assert record is not None and record.state.to_act is not None
        state = record.state
        if state.round == 2 and sum(score is not None for score in state.played) == 1:
            return table
        table.last = await table.press(state.to_act.name)


async def _presses_to_the_end(table: Table) -> int:
    presses = 0
    while (player := await table.to_act()) is not None:
        table.last = await table.press(player)
        presses += 1
    return presses


async def _canoga_payments(store: RedisStore) -> list[tuple[str, int]]:
    return [
        (source, amount)
        async for source, target, amount, _ in store.journal(SCOPE)
        if {source, target} == {"ann", "bob"}
    ]


async def test_a_canoga_loser_who_got_chips_meanwhile_pays_from_them(
    redis: Redis, store: RedisStore
) -> None:
    """With 1 chip each, round 1's loser is left with 0; both claim a daily of 25 in another
    process during round 2, and that loser, losing again, pays the difference from the 25."""
    control = await _canoga_until_the_last_turn(store, start_chips=100)
    clicks = await _presses_to_the_end(control)
    (loser, first), (again, owed) = await _canoga_payments(store)
    assert loser == again and first >= 1 and owed > 1  # the seed makes the cached 0 matter

    await redis.flushdb()
    table = await _canoga_until_the_last_turn(store, start_chips=1)
    assert (await store.balances(SCOPE, [loser]))[loser] == 0
    for _ in range(clicks - 1):  # every click but the one that settles round 2
        table.last = await table.press(await table.to_act() or "")
    other = Table(manager(store))
    for player in ("Ann", "Bob"):
        reply = await other.manager.handle(other.ctx(player), Daily())
        assert reply.private is not None and reply.private.startswith("You claimed 25 chips.")
    await table.play_out()
    assert await _canoga_payments(store) == [(loser, 1), (loser, min(owed, 25))]
    balances = await store.balances(SCOPE, ["ann", "bob"])
    assert sum(balances.values()) == 2 * 26
    assert (await store.verify_ledger(SCOPE)).ok


@pytest.mark.parametrize("ending", ["leave", "timeout"])
async def test_a_pot_round_start_antes_from_a_daily_claimed_elsewhere(
    store: RedisStore, ending: str
) -> None:
    """start_chips=5, pot:5: all have 0 after the first ante; Ann's daily in another manager
    during round 1 pays her ante when the last player's leave (or timeout, applied by the
    sweep) ends round 1 and starts round 2 in one commit."""
    await store.set_fields(SCOPE, "cfg", {"start_chips": "5"})
    clock = Clock()
    table = Table(manager(store, clock=clock))
    options = StartOptions(stakes="pot:5", format="rounds:3", timer=30)
    await table.manager.handle(table.ctx("Ann"), Start(options))
    for player in ("Bob", "Cid"):
        await table.manager.handle(table.ctx(player), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    while (record := await table.manager.current(table.ctx("x"))) is not None:
        if sum(score is not None for score in record.state.played) == 2:
            break
        table.last = await table.press(record.state.to_act.name)  # type: ignore[union-attr]
    assert record is not None and record.state.to_act is not None
    last = record.state.to_act
    assert last.id != "ann"
    other = Table(manager(store, clock=clock))
    await other.manager.handle(other.ctx("Ann"), Daily())
    if ending == "leave":
        await table.manager.handle(table.ctx(last.name), Leave())
    else:
        clock.now += 31
        assert len(await table.manager.sweep("test")) == 1
    record = await table.manager.current(table.ctx("x"))
    assert record is not None and record.state.round == 2
    antes = [a async for s, t, a, _ in store.journal(SCOPE) if (s, t) == ("ann", "pot:c1")]
    assert antes == [5, 5]
    await table.play_out()
    balances = await store.balances(SCOPE, ["ann", "bob", "cid", "pot:c1"])
    assert sum(balances.values()) == 15 + 25 and balances.get("pot:c1", 0) == 0
    assert (await store.verify_ledger(SCOPE)).ok


async def test_the_script_refuses_a_settlement_that_leaves_a_staker_unchecked(
    store: RedisStore,
) -> None:
    """A commit naming a staker without the balance it counted with fails closed, moving
    nothing, and returns that staker's balance for the retry."""
    seed = Commit(SCOPE, ensure_accounts=("ann", "bob"), start_balance=10, request_id="seed")
    assert (await store.commit(seed)).status is Status.OK
    unchecked = Commit(
        SCOPE, request_id="ante", start_balance=10, ensure_accounts=("ann", "bob"),
        expected_balances=(("ann", 10),), stakers=("ann", "bob"),
        transfers=(Transfer("ann", "pot:c1", 5),), report_accounts=("ann", "bob"),
    )  # fmt: skip
    refused = await store.commit(unchecked)
    assert refused.status is Status.BALANCES
    assert refused.balances == {"ann": 10, "bob": 10}
    assert await store.balances(SCOPE, ["ann", "bob", "pot:c1"]) == {"ann": 10, "bob": 10}
    stale = Commit(
        SCOPE, request_id="ante", start_balance=10, ensure_accounts=("ann", "bob"),
        expected_balances=(("ann", 10), ("bob", 0)), stakers=("ann", "bob"),
        transfers=(Transfer("ann", "pot:c1", 5),), report_accounts=("ann", "bob"),
    )  # fmt: skip
    assert (await store.commit(stale)).status is Status.BALANCES
    fresh = Commit(
        SCOPE, request_id="ante", start_balance=10, ensure_accounts=("ann", "bob"),
        expected_balances=(("ann", 10), ("bob", 10)), stakers=("ann", "bob"),
        transfers=(Transfer("ann", "pot:c1", 5), Transfer("bob", "pot:c1", 5)),
        report_accounts=("ann", "bob"),
    )  # fmt: skip
    assert (await store.commit(fresh)).status is Status.OK
    assert await store.balances(SCOPE, ["ann", "bob", "pot:c1"]) == {
        "ann": 5, "bob": 5, "pot:c1": 10,
    }  # fmt: skip
