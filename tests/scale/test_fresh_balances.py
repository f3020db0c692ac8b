"""Chips that arrive by another path in another OS process are counted by the next settlement.

Process B plays a staked pot match and so caches everyone's balance (0 after the first ante);
process A pays one of the players by `daily` or a gift in the middle of round 1. When the round
ends and the next begins in one commit of B, that player antes from the chips A gave them: the
commit script checks every seated staked player's balance, and B settles again on the fresh ones.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.service.model.commit import MINT, Scope
from core.store.redis_store import RedisStore
from tests.scale.play import Seat, fresh_record, turn_buttons
from tests.scale.steps import Step
from tests.scale.test_cross_process import StepProcess, step_processes

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = "table"
POT = f"pot:{CHANNEL}"


@pytest.fixture
async def a_and_b(redis_url: str) -> AsyncIterator[tuple[StepProcess, StepProcess]]:
    async with step_processes(redis_url) as (a, b):
        yield a, b


class Steps:
    def __init__(self, scope: Scope) -> None:
        self.scope, self.count = scope, 0

    def __call__(self, op: str, user: str, **extra: object) -> Step:
        self.count += 1
        where = (self.scope.platform, self.scope.server)
        return Step(op, user, where, CHANNEL, f"{self.scope.server}-{self.count}", **extra)  # type: ignore[arg-type]


async def round_one_until_the_last_turn(store: RedisStore, seat: Seat, b: StepProcess,
                                        step: Steps) -> str:  # fmt: skip
    """B plays round 1 until one player's turn is left; that player's id."""
    while True:
        record = await fresh_record(store, seat)
        assert record is not None and record.state.to_act is not None
        state = record.state
        if sum(score is not None for score in state.played) == len(state.seats) - 1:
            return state.to_act.id
        await b.send(step("click", state.to_act.id, button=turn_buttons(record)[0]))


async def antes_of(store: RedisStore, scope: Scope, player: str) -> list[int]:
    return [
        amount
        async for source, target, amount, _ in store.journal(scope)
        if (source, target) == (player, POT)
    ]


async def open_pot_match(store: RedisStore, scope: Scope, b: StepProcess, step: Steps) -> None:
    """`start_chips=5`, a `pot:5` match of three rounds, all through B: everyone has 0."""
    await store.set_fields(scope, "cfg", {"start_chips": "5"})
    for op, user in (("start", "ann"), ("join", "bob"), ("join", "cid"), ("begin", "ann")):
        extra = {"options": {"stakes": "pot:5", "format": "rounds:3"}} if op == "start" else {}
        reply = await b.send(step(op, user, **extra))
        assert reply["private"] is None, reply
    assert await store.balances(scope, ["ann", "bob", "cid"]) == {"ann": 0, "bob": 0, "cid": 0}


async def finish(store: RedisStore, scope: Scope, seat: Seat, b: StepProcess, step: Steps) -> None:
    while (record := await fresh_record(store, seat)) is not None and record.state.to_act:
        await b.send(step("click", record.state.to_act.id, button=turn_buttons(record)[0]))
    assert await fresh_record(store, seat) is None
    report = await store.verify_ledger(scope)
    assert report.ok and report.total == 0


async def test_a_daily_in_a_is_anted_by_the_round_start_in_b(
    a_and_b: tuple[StepProcess, StepProcess], store: RedisStore
) -> None:
    """Ann claims her daily 25 in A during round 1; B's commit that ends round 1 (the last
    player leaves) and starts round 2 takes her ante of 5, as SPEC §4 says."""
    a, b = a_and_b
    scope = Scope("fresh", "daily")
    seat, step = Seat(scope, CHANNEL), Steps(scope)
    await open_pot_match(store, scope, b, step)
    last = await round_one_until_the_last_turn(store, seat, b, step)
    assert last != "ann"
    daily = await a.send(step("daily", "ann"))
    assert daily["private"] == "You claimed 25 chips. You now have 25 chips."
    assert (await b.send(step("leave", last)))["private"] is None
    record = await fresh_record(store, seat)
    assert record is not None and record.state.round == 2
    assert await antes_of(store, scope, "ann") == [5, 5]
    await finish(store, scope, seat, b, step)
    balances = await store.balances(scope, ["ann", "bob", "cid", POT, MINT])
    assert balances["ann"] + balances["bob"] + balances["cid"] == 3 * 5 + 25
    assert balances.get(POT, 0) == 0


async def test_a_gift_in_b_is_anted_by_the_round_start_in_a(
    a_and_b: tuple[StepProcess, StepProcess], store: RedisStore
) -> None:
    """Dan (not seated) gives Bob 20 in B during round 1; A, which cached Bob at 0, starts
    round 2 and takes Bob's ante of 5."""
    a, b = a_and_b
    scope = Scope("fresh", "gift")
    seat, step = Seat(scope, CHANNEL), Steps(scope)
    await open_pot_match(store, scope, a, step)
    await a.send(step("grant", "mod", target="dan", amount=50, admin=True))
    last = await round_one_until_the_last_turn(store, seat, a, step)
    giver_to = "bob" if last != "bob" else "cid"
    gift = await b.send(step("give", "dan", target=giver_to, amount=20))
    assert gift["private"].startswith("You gave "), gift
    assert (await a.send(step("leave", last)))["private"] is None
    assert await antes_of(store, scope, giver_to) == [5, 5]
    await finish(store, scope, seat, a, step)
    players = await store.balances(scope, ["ann", "bob", "cid", "dan"])
    assert sum(players.values()) == 3 * 5 + 5 + 50
