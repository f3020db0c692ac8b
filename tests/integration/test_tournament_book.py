"""A tournament's record and chips on a real Redis (SPEC 12): fees held while entered, paid
into the tournament's pot at the start, prizes or refunds out of it, the ledger balanced at
every step, and each round advanced exactly once however its last results arrive."""

from __future__ import annotations

import asyncio
import random

import pytest
import redis.asyncio as aioredis
from redis.asyncio import Redis

from core.game.errors import InsufficientChips
from core.game.tournament.errors import AlreadyEntered, InvalidTournament
from core.game.tournament.prizes import prizes
from core.game.tournament.standings import standings
from core.game.tournament.values import Entry, Kind, Settings, Status, TableResult, Tournament
from core.service.features.gifts import Gifts, Recipient, Standing
from core.service.features.tournaments.book import Book
from core.service.features.tournaments.records import load, pot_account
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.store.redis_store import RedisStore

SCOPE = Scope("test", "guild")
CHANNEL = "c1"
SEED = "5e" * 32
PLAYERS = tuple(f"u{i}" for i in range(7))


def book(store: RedisStore, request: str | None = None) -> Book:
    return Book(store, SCOPE, start_balance=100, request_id=request, clock=lambda: 1_000.0)


async def entered(store: RedisStore, kind: Kind = Kind.SWISS, size: int = 3, count: int = 7,
                  fee: int = 10) -> None:  # fmt: skip
    await book(store).create(CHANNEL, "cup", Settings("Friday cup", kind, 3, table_size=size,
                                                      fee=fee))  # fmt: skip
    for player in PLAYERS[:count]:
        await book(store).join(CHANNEL, Entry(player, player.upper()))


def outcome(seats: tuple[str, ...], rng: random.Random) -> TableResult:
    totals = tuple(rng.randint(0, 9) for _ in seats)
    return TableResult(tuple(p for p, t in zip(seats, totals, strict=True) if t == min(totals)),
                       totals)  # fmt: skip


async def current(store: RedisStore) -> Tournament:
    stored = await load(store, SCOPE, "cup")
    assert stored is not None
    return stored.tournament


async def test_a_fee_is_held_while_entered_and_paid_into_the_pot_at_the_start(
    store: RedisStore,
) -> None:
    await entered(store)
    gifts = Gifts(store, lambda: 1_000.0)
    ctx = Context(SCOPE, CHANNEL, "u0", "U0", "r1")
    with pytest.raises(InsufficientChips) as held:
        await gifts.give(ctx, Recipient("x", "X", Standing.MEMBER), 91, 100, "en", "en")
    assert held.value.key == "error.give.held_tournament"
    await book(store).start(CHANNEL, SEED)
    balances = await store.balances(SCOPE, [*PLAYERS, pot_account("cup")])
    assert balances[pot_account("cup")] == 70
    assert all(balances[p] == 90 for p in PLAYERS)
    await gifts.give(ctx, Recipient("x", "X", Standing.MEMBER), 90, 100, "en", "en")  # released
    assert (await store.verify_ledger(SCOPE)).ok


@pytest.mark.parametrize(("kind", "size", "count"), [(Kind.SWISS, 3, 7), (Kind.KNOCKOUT, 2, 7)])
async def test_every_round_advances_once_and_the_pot_goes_to_the_places(
    store: RedisStore, redis_url: str, kind: Kind, size: int, count: int
) -> None:
    """The last two tables of each round are reported at once by two clients (two processes'
    connections), and every report is delivered twice: one advance per round, one payout."""
    await entered(store, kind, size, count)
    await book(store).start(CHANNEL, SEED)
    other = RedisStore(aioredis.from_url(redis_url, decode_responses=True))
    rng, advances = random.Random(4), 0
    while (tournament := await current(store)).status is Status.RUNNING:
        round_ = tournament.current
        assert round_ is not None
        results = [(t.number, outcome(t.seats, rng)) for t in round_.tables]
        for number, result in results[:-2]:
            await book(store).report("cup", round_.number, number, result)
        last = results[-2:]
        changes = await asyncio.gather(
            *(book(s).report("cup", round_.number, n, r) for s in (store, other) for n, r in last)
        )
        advances += sum(1 for c in changes if c.advanced or c.finished)
        assert (await store.verify_ledger(SCOPE)).ok
    await other._redis.aclose()
    assert advances == len(tournament.rounds)
    paid = prizes(70, (60, 30, 10), count)
    places = [line.player for line in standings(tournament)][:3]
    balances = await store.balances(SCOPE, [*PLAYERS, pot_account("cup")])
    assert [balances[p] - 90 for p in places] == list(paid)
    assert balances[pot_account("cup")] == 0
    assert (await store.verify_ledger(SCOPE)).ok


async def test_cancel_gives_every_fee_back(store: RedisStore) -> None:
    await entered(store, count=4)
    await book(store).start(CHANNEL, SEED)
    change = await book(store).cancel(CHANNEL)
    assert change.after.status is Status.CANCELLED
    balances = await store.balances(SCOPE, [*PLAYERS[:4], pot_account("cup")])
    assert balances == {**dict.fromkeys(PLAYERS[:4], 100), pot_account("cup"): 0}
    assert (await store.verify_ledger(SCOPE)).ok


async def test_joining_twice_or_without_the_fee_and_a_start_in_the_past_are_refused(
    store: RedisStore, redis: Redis
) -> None:
    with pytest.raises(InvalidTournament) as past:
        await book(store).create(CHANNEL, "cup", Settings("Cup", starts_at=999))
    assert past.value.key == "error.tournament.start"
    await book(store).create(CHANNEL, "cup", Settings("Cup", fee=150))
    await redis.hset(f"{SCOPE.tag}:bal", "u0", 200)
    await book(store).join(CHANNEL, Entry("u0", "U0"))
    with pytest.raises(AlreadyEntered):
        await book(store).join(CHANNEL, Entry("u0", "U0"))
    with pytest.raises(InsufficientChips) as short:
        await book(store).join(CHANNEL, Entry("u1", "U1"))
    assert short.value.params == {"fee": 150, "balance": 100}
