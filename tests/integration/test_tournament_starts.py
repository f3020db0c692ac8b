"""A UTC start time starts the tournament without any command (SPEC 12): the sweep starts it
once it is due, through the same commit as `tournament start`, so a command racing the timer
starts it once; with fewer than 2 players it is called off, every fee released."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from core.game.tournament.draw import new_server_seed
from core.game.tournament.values import Status
from core.service.features.tournaments.book import Book
from core.service.features.tournaments.records import active, load, pot_account
from core.service.model import keys
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager
from tests.integration.test_tournament_commands import say

START = "2027-01-15T09:00"  # an hour after the test clock's now
DUE = 1_800_003_600


async def planned(store: RedisStore, clock: Clock, players: int) -> str:
    lobby = Table(manager(store, clock=clock))
    await say(lobby, "Root", f"create Cup start={START} fee=10", admin=True)
    for name in ("Ann", "Bob", "Cid")[:players]:
        await say(lobby, name, "join")
    stored = await active(store, SCOPE, "c1")
    assert stored is not None
    return stored.tournament.id


async def test_the_sweep_starts_a_tournament_at_its_start_time_and_posts_round_one(
    store: RedisStore, redis: Redis
) -> None:
    clock = Clock()
    tournament = await planned(store, clock, 3)
    bot = manager(store, clock=clock)
    clock.now = DUE - 1
    assert await bot.sweep() == []
    clock.now = DUE
    swept = await bot.sweep()
    assert len(swept) == 1
    scope, reply = swept[0]
    assert scope == SCOPE
    assert [(channel, text.split(" has started")[0]) for channel, text in reply.elsewhere] == [
        ("c1", "🏆 **Cup**")]
    assert [(call.round, call.table, call.channel) for call in reply.tables] == [(1, 1, "c1")]
    stored = await load(store, SCOPE, tournament)
    assert stored is not None and stored.tournament.status is Status.RUNNING
    assert await bot.sweep() == []  # started once; the index holds nothing more
    assert await redis.zcard(keys.TOURNAMENT_STARTS) == 0


async def test_a_command_and_the_timer_racing_start_it_once(store: RedisStore) -> None:
    clock = Clock()
    tournament = await planned(store, clock, 3)
    clock.now = DUE
    command = say(Table(manager(store, clock=clock)), "Ann", "standings")
    swept, shown = await asyncio.gather(manager(store, clock=clock).sweep(), command)
    told = [text for _, reply in swept for _, text in reply.elsewhere] + list(shown.public)
    assert sum("has started" in text for text in told) == 1
    pot = pot_account(tournament)
    assert (await store.balances(SCOPE, [pot]))[pot] == 30  # three fees, taken once
    assert (await store.verify_ledger(SCOPE)).ok


async def test_too_few_players_at_the_start_time_call_it_off_and_release_the_fee(
    store: RedisStore,
) -> None:
    clock = Clock()
    tournament = await planned(store, clock, 1)
    clock.now = DUE
    swept = await manager(store, clock=clock).sweep()
    assert [reply.elsewhere for _, reply in swept] == [(("c1", (
        "**Cup** could not start at its start time: it needs at least 2 players. It is "
        "cancelled, and every entry fee went back.")),)]
    stored = await load(store, SCOPE, tournament)
    assert stored is not None and stored.tournament.status is Status.CANCELLED
    assert await active(store, SCOPE, "c1") is None
    gift = await say(Table(manager(store, clock=clock)), "Root", "create Next", admin=True)
    assert gift.public  # the channel is free for the next one
    assert (await store.balances(SCOPE, ["ann"]))["ann"] == 100
    assert (await store.verify_ledger(SCOPE)).ok


async def test_a_start_the_sweep_committed_but_never_told_is_told_by_the_next_sweep(
    store: RedisStore, redis: Redis
) -> None:
    clock = Clock()
    tournament = await planned(store, clock, 3)
    clock.now = DUE
    # The sweeping process's commit, and then it stopped: the index still holds the start.
    await Book(store, SCOPE, clock=clock).start("c1", new_server_seed(), told_later=True)
    swept = await manager(store, clock=clock).sweep()
    assert [text.split(" has started")[0] for _, reply in swept for _, text in reply.elsewhere
            ] == ["🏆 **Cup**"]  # fmt: skip
    assert [(call.round, call.table) for _, reply in swept for call in reply.tables] == [(1, 1)]
    assert await manager(store, clock=clock).sweep() == []
    assert await redis.zcard(keys.TOURNAMENT_STARTS) == 0
    stored = await load(store, SCOPE, tournament)
    assert stored is not None and len(stored.tournament.rounds) == 1
