"""A tournament played through in the playground (SPEC 8, 12): the tables of each round open
one after another in the terminal, each an ordinary game played by whoever's turn it is, the
standings follow every round, the prizes are paid and the pairings check out."""

from __future__ import annotations

import re

import pytest
from redis.asyncio import Redis

from adapters.console import SCOPE, Playground
from core.game.dice import SeededDice
from core.game.tournament.values import Status, Tournament
from core.game.tournament.verify import pairing_faults
from core.service.features.tournaments.records import FINISHED, load
from core.store.redis_store import RedisStore
from tests.e2e.test_console import chips, make, send_all

MAX_PRESSES = 3000
PLAYERS = ("Ann", "Bob", "Cid", "Dan", "Eve")


async def finished(redis: Redis) -> Tournament | None:
    store = RedisStore(redis)
    ended = list(await store.hash(SCOPE, FINISHED))
    stored = await load(store, SCOPE, ended[0]) if ended else None
    return stored.tournament if stored is not None else None


async def play_cup(playground: Playground, redis: Redis, create: str,
                   count: int) -> tuple[Tournament, list[str]]:  # fmt: skip
    """Sign up `count` players at one keyboard, start, and press the first button until the
    tournament is over; the tournament and everything the terminal showed."""
    out = await send_all(playground, f"tournament create {create}")
    for name in PLAYERS[:count]:
        out += await send_all(playground, f"as {name}", "tournament join")
    out += await playground.send("tournament start")
    for _ in range(MAX_PRESSES):
        over = await finished(redis)
        if over is not None and over.status is Status.FINISHED:
            return over, out
        out += await playground.send("a")
    raise AssertionError("the tournament did not end:\n" + "\n".join(out[-40:]))


@pytest.mark.parametrize(("create", "count", "rounds", "tables"), [
    ("Friday cup kind=swiss rounds=2 table=2 fee=10", 5, 2, 4),
    ("Friday cup kind=knockout table=2 fee=10", 4, 2, 3),
])  # fmt: skip
async def test_a_tournament_is_played_table_by_table_to_its_prizes(
    redis: Redis, create: str, count: int, rounds: int, tables: int
) -> None:
    playground = make(redis, SeededDice(7), name="Root")
    final, out = await play_cup(playground, redis, create, count)
    text = "\n".join(out)
    opened = re.findall(r"— Now at the table: Friday cup · round (\d) · table (\d): ", text)
    assert len(opened) == tables == sum(len(r.tables) for r in final.rounds)
    assert len(final.rounds) == rounds and pairing_faults(final) == []
    for n in range(1, rounds + 1):
        assert f"Friday cup — standings after {n} round" in text
    assert "Friday cup is over: " in text
    assert "— Back in the playground’s channel: no tournament table is left to play. —" in text
    assert playground.tables.channel == playground.tables.main
    balances = [await chips(playground, name) for name in PLAYERS[:count]]
    assert sum(balances) == 100 * count  # the fees went into the pot and back out as prizes
    assert sorted(balances, reverse=True)[0] > 90


async def test_a_knockouts_standings_in_the_terminal_say_how_far_each_came(redis: Redis) -> None:
    playground = make(redis, SeededDice(3), name="Root")
    _, out = await play_cup(playground, redis, "Cup kind=knockout table=2", 3)
    text = "\n".join(out)
    assert re.search(r"\d\. \w+ — still in", text)
    assert re.search(r"\d\. \w+ — out in round 1 at table 1, score \d+", text)
    assert re.search(r"1\. \w+ — 🏆 winner", text)
