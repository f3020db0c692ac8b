"""Chips move only as the journal says, and a commit that does not fit writes nothing."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis
from redis.exceptions import ResponseError

import core.store.ledger
import core.store.redis_store
from core.game.settlement import Transfer
from core.service.model.commit import (
    MINT,
    Commit,
    DailyClaim,
    Journal,
    OpKind,
    Status,
    StoreOp,
)
from core.store.redis_store import RedisStore, StoreRefused
from tests.integration.store.helpers import (
    ANN,
    ANTES,
    BEN,
    DAY,
    POT,
    SCOPE,
    everything,
    new_game,
    next_move,
)


async def test_transfers_are_journaled_and_the_ledger_verifies(store: RedisStore) -> None:
    """Every chip movement is in the journal; replaying it gives the stored balances."""
    await store.commit(new_game(journal=Journal("start", "c1")))
    await store.commit(next_move(1, transfers=ANTES, journal=Journal("ante", "c1")))
    await store.commit(next_move(2, transfers=(Transfer(POT, BEN, 20),), journal=Journal("pot")))
    entries = [(s, t, a, m["why"]) async for s, t, a, m in store.journal(SCOPE)]
    assert entries == [
        (MINT, ANN, 100, "start"),
        (MINT, BEN, 100, "start"),
        (ANN, POT, 10, "ante"),
        (BEN, POT, 10, "ante"),
        (POT, BEN, 20, "pot"),
    ]
    report = await store.verify_ledger(SCOPE)
    assert (report.ok, report.entries, report.accounts, report.total) == (True, 5, 4, 0)


async def test_ledger_verifies_while_chips_move(store: RedisStore) -> None:
    """A ledger check running among concurrent commits still sees balances and journal agree."""
    await store.commit(new_game())
    passes = [Transfer(ANN, BEN, 1), Transfer(BEN, ANN, 1)]
    moves = [Commit(SCOPE, transfers=(passes[i % 2],)) for i in range(40)]
    checks = [store.verify_ledger(SCOPE) for _ in range(10)]
    outcomes = await asyncio.gather(*(store.commit(m) for m in moves), *checks)
    reports = [o for o in outcomes if isinstance(o, core.store.redis_store.LedgerReport)]
    assert all(report.ok for report in reports)
    assert (await store.verify_ledger(SCOPE)).entries == 42


async def test_journal_is_read_in_chunks(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A journal longer than one chunk is read whole, in order."""
    monkeypatch.setattr(core.store.ledger, "JOURNAL_CHUNK", 3)
    back_and_forth = tuple(Transfer(*pair, 1) for pair in [(ANN, BEN), (BEN, ANN)] * 5)
    await store.commit(new_game(transfers=back_and_forth))
    amounts = [amount async for _, _, amount, _ in store.journal(SCOPE)]
    assert amounts == [100, 100] + [1] * 10
    assert (await store.verify_ledger(SCOPE)).entries == 12


async def test_tampered_balance_is_reported_by_the_ledger(redis: Redis, store: RedisStore) -> None:
    """A balance changed outside the script shows up as a mismatch and a non-zero total."""
    await store.commit(new_game())
    await redis.hincrby(f"{SCOPE.tag}:bal", ANN, 5)
    report = await store.verify_ledger(SCOPE)
    assert not report.ok
    assert report.mismatches == {ANN: (100, 105)}
    assert report.total == 5


async def test_expected_balance_mismatch_refuses_everything(
    redis: Redis, store: RedisStore
) -> None:
    """A commit computed on outdated balances writes nothing at all and gets the current ones."""
    await store.commit(new_game())
    before = await everything(redis)
    refused = next_move(
        1,
        ensure_accounts=("u3",),
        expected_balances=((ANN, 100), (BEN, 99)),
        transfers=ANTES,
        deadline=500,
        ops=(StoreOp(OpKind.HINCRBY, f"stats:{ANN}", "games", 1),),
        daily=DailyClaim(ANN, now=1000, cooldown=DAY),
        request_id="i-5",
    )
    result = await store.commit(refused)
    assert result.status is Status.BALANCES
    assert result.balances == {ANN: 100, BEN: 100, POT: 0}
    assert await everything(redis) == before


async def test_overdraft_refuses_everything(redis: Redis, store: RedisStore) -> None:
    """A transfer that would take a player below zero refuses the whole commit."""
    await store.commit(new_game())
    before = await everything(redis)
    result = await store.commit(next_move(1, transfers=(*ANTES, Transfer(ANN, POT, 91))))
    assert result.status is Status.BALANCES
    assert await everything(redis) == before


@pytest.mark.parametrize(
    "misfit",
    [
        StoreOp(OpKind.HINCRBY, "lb:wins", ANN, 1),  # a hash op on a sorted set
        StoreOp(OpKind.ZINCRBY, f"stats:{ANN}", "games", 1),  # a sorted-set op on a hash
    ],
    ids=["hash-op-on-zset", "zset-op-on-hash"],
)
async def test_stats_op_that_does_not_fit_refuses_everything(
    redis: Redis, store: RedisStore, misfit: StoreOp
) -> None:
    """A stats op that would fail halfway is found before the first write: nothing changes."""
    await store.commit(new_game(ops=(StoreOp(OpKind.ZINCRBY, "lb:wins", ANN, 1),)))
    await store.commit(next_move(1, ops=(StoreOp(OpKind.HSET, f"stats:{ANN}", "rules", "x"),)))
    before = await everything(redis)
    good = StoreOp(OpKind.HINCRBY, f"stats:{ANN}", "games", 1)
    with pytest.raises(StoreRefused) as refused:
        await store.commit(next_move(2, transfers=ANTES, ops=(good, misfit), request_id="i-7"))
    assert isinstance(refused.value.__cause__, ResponseError)
    assert "does not fit" in str(refused.value.__cause__)
    assert await everything(redis) == before


@pytest.mark.parametrize("damage", ["x", "²", "٣", "007", "-0", "1" * 17])
async def test_a_counter_that_is_no_whole_number_is_left_and_the_rest_applies(
    redis: Redis, store: RedisStore, damage: str
) -> None:
    """HINCRBY and a lowering write on a damaged counter would fail halfway: the script leaves
    that counter as it is, applies everything else, and names it once."""
    await store.commit(new_game())
    await redis.hset(f"{SCOPE.tag}:stats:{ANN}", mapping={"games": damage, "best": damage})
    ops = (StoreOp(OpKind.HINCRBY, f"stats:{ANN}", "games", 1),
           StoreOp(OpKind.HINCRBY, f"stats:{ANN}", "games", 1),
           StoreOp(OpKind.HMIN, f"stats:{ANN}", "best", 3),
           StoreOp(OpKind.HINCRBY, f"stats:{ANN}", "rounds", 1))  # fmt: skip
    result = await store.commit(next_move(1, transfers=ANTES, ops=ops))
    assert result.status is Status.OK
    assert result.damaged == (f"stats:{ANN} games", f"stats:{ANN} best")
    stats = await redis.hgetall(f"{SCOPE.tag}:stats:{ANN}")
    assert stats == {"games": damage, "best": damage, "rounds": "1"}
    assert await redis.hget(f"{SCOPE.tag}:bal", POT) == "20"  # the antes moved


async def test_new_players_count_at_their_start_balance(store: RedisStore) -> None:
    """A player created by this commit can be expected at the start balance and ante at once."""
    await store.commit(new_game())
    join = next_move(
        1,
        ensure_accounts=("u3",),
        expected_balances=(("u3", 100),),
        transfers=(Transfer("u3", POT, 10),),
        report_accounts=("u3", MINT),
    )
    result = await store.commit(join)
    assert result.status is Status.OK
    assert result.balances == {"u3": 90, MINT: -300}


async def test_daily_claim_waits_for_its_cooldown(store: RedisStore) -> None:
    """The daily allowance can be claimed once per cooldown; too early says how long to wait."""

    def claim(now: int) -> Commit:
        return Commit(
            scope=SCOPE,
            daily=DailyClaim(ANN, now=now, cooldown=DAY),
            transfers=(Transfer(MINT, ANN, 25),),
            journal=Journal("daily"),
            report_accounts=(ANN,),
        )

    assert (await store.commit(claim(1000))).balances == {ANN: 25}
    early = await store.commit(claim(1000 + DAY - 60))
    assert (early.status, early.retry_after) == (Status.DAILY_WAIT, 60)
    assert (await store.commit(claim(1000 + DAY))).balances == {ANN: 50}
