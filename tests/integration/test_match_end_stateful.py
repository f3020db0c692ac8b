"""Random timeouts, leaves, drops and presses on real Redis: a match ends exactly once.

Hypothesis draws a table (two or three humans, maybe a bot; or a solo game), a format, stakes
and a sequence of steps; then the deadlines run the match out. Whatever ended it, the channel
got one match summary, each human's game was counted at most once (exactly once unless the
match was void), the wins agree with the summary, and the ledger balances.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest
import redis.asyncio as aioredis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.service.api.commands import AddBot, Begin, Join, Leave, Solo, Start
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager
from tests.integration.test_manager_stateful import sync_redis_url  # noqa: F401 - a fixture

NAMES = ("Ann", "Bob", "Cid")
STEP = st.one_of(
    st.just(("timeout", 0)),
    st.tuples(st.just("leave"), st.integers(0, 2)),
    st.tuples(st.just("press"), st.integers(0, 2)),
)
GAMES = ("games", "solo_games", "practice_games")


@pytest.fixture(scope="module")
def url(sync_redis_url: str) -> Iterator[str]:  # noqa: F811
    yield sync_redis_url


async def run_match(url: str, humans: int, bot: bool, fmt: str, stakes: str,
                    steps: list[tuple[str, int]]) -> None:  # fmt: skip
    client = aioredis.from_url(url, decode_responses=True)
    await client.flushdb()
    store, clock = RedisStore(client), Clock()
    table = Table(manager(store, clock=clock))
    posted: list[str] = []
    options = StartOptions(format=fmt, timer=10, stakes=None if humans == 1 else stakes)
    names = NAMES[:humans]
    if humans == 1 and not bot:
        table.last = await table.manager.handle(table.ctx("Ann"), Solo(options))
    else:
        await table.manager.handle(table.ctx("Ann"), Start(options))
        for name in names[1:]:
            await table.manager.handle(table.ctx(name), Join())
        if bot:
            await table.manager.handle(table.ctx("Ann"), AddBot())
        table.last = await table.manager.handle(table.ctx("Ann"), Begin())
    for kind, who in [*steps, *[("timeout", 0)] * 80]:
        record = await table.manager.current(table.ctx("x"))
        if record is None or record.state.over:
            break
        if kind == "timeout":
            clock.now += 11
            posted += [text for _, reply in await table.manager.sweep() for text in reply.public]
        elif kind == "leave":
            reply = await table.manager.handle(table.ctx(names[who % humans]), Leave())
            posted += reply.public
        elif (player := await table.to_act()) is not None:
            posted += (await table.press(player)).public
    summaries = [text for text in posted if "**Match over**" in text]
    assert len(summaries) == 1, posted
    void = "doesn’t count" in summaries[0]
    stats = {name: await store.hash(SCOPE, f"stats:{name.lower()}") for name in names}
    for name, fields in stats.items():
        counted = sum(int(fields.get(field, "0")) for field in GAMES)
        assert counted == (0 if void else 1), (name, fields, summaries)
    winners = [
        name
        for name, fields in stats.items()
        if any(fields.get(f, "0") == "1" for f in ("wins", "solo_wins", "practice_wins"))
    ]
    winner_line = summaries[0].splitlines()[0]
    for name in names:
        assert (name in winners) == (name in winner_line and not void), (name, summaries)
    if "No winner" in summaries[0] or void:
        assert await store.hash(SCOPE, "rating") == {}
    report = await store.verify_ledger(SCOPE)
    assert report.ok and report.total == 0, report
    await client.aclose()


@settings(max_examples=int(os.environ.get("STATEFUL_EXAMPLES", "25")), deadline=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(
    humans=st.integers(1, 3),
    bot=st.booleans(),
    fmt=st.sampled_from(("rounds:1", "rounds:2", "rounds:3", "to-45", "elimination")),
    stakes=st.sampled_from(("none", "pot:5", "canoga")),
    steps=st.lists(STEP, max_size=30),
)
def test_a_match_ends_once_whatever_ends_it(
    url: str, humans: int, bot: bool, fmt: str, stakes: str, steps: list[tuple[str, int]]
) -> None:
    asyncio.run(run_match(url, humans, bot, fmt, stakes, steps))
