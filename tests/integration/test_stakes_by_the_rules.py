"""Random staked matches on real Redis through the real manager: after every step, every
player's balance is what SPEC 4 says it must be (tests/model/stakes_model.py, an independent
model of the rules), not only conserved and never negative.

Hypothesis draws the players' balances (a few antes at most, so they run out and play all in),
the format and the stakes, and a sequence of steps: a turn played by hand (always pressing the
same button), a timeout (three in a row drop a player), a leave, and the host's stop. The
model is fed the engine's events of every commit that was written, in order, and the test
holds the balances in Redis and the pot against it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
import redis.asyncio as aioredis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.game.events import Event
from core.game.match import StakesKind
from core.game.state import GameState
from core.service.api.commands import Begin, Click, Grant, Join, Leave, Start, Stop
from core.service.features.gifts import Standing
from core.service.model.settings import StartOptions
from core.service.pipeline import game_commit
from core.service.show.present import game_view
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager
from tests.integration.test_manager_stateful import sync_redis_url  # noqa: F401 - a fixture
from tests.model.stakes_model import StakesModel

NAMES = ("Ann", "Bob", "Cid")
START = 100
MAX_PRESSES = 40  # a turn by hand: rolls and moves, then the turn passes
TAIL = 200  # after the drawn steps, turns by hand until the match ends
PRESS = st.tuples(st.just("press"), st.integers(0, 7))
TIMEOUT = st.tuples(st.just("timeout"), st.just(0))
# Mostly turns played by hand and timeouts, so most matches play rounds before a leave or stop.
STEP = st.one_of(
    *[PRESS] * 8, *[TIMEOUT] * 3,
    st.tuples(st.just("leave"), st.integers(0, 2)),
    st.tuples(st.just("stop"), st.just(0)),
)  # fmt: skip
Commits = dict[str, list[tuple[str, tuple[Event, ...], GameState]]]


@pytest.fixture(scope="module")
def url(sync_redis_url: str) -> Iterator[str]:  # noqa: F811
    yield sync_redis_url


PLANNED: Commits = {}  # every change the manager planned, by the state it started from


@pytest.fixture(autouse=True)
def spied(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep each planned change in PLANNED (a plan whose commit was refused and retried is
    found there too; `follow` takes the one that was written)."""
    planned = PLANNED
    real = game_commit.plan_change

    def spy(scope: Any, record: Any, state: GameState, events: Any, **kw: Any) -> Any:
        after = state.to_str()
        planned.setdefault(record.state.to_str(), []).append((after, tuple(events), record.state))
        return real(scope, record, state, events, **kw)

    monkeypatch.setattr("core.service.pipeline.commit_loop.plan_change", spy)


def follow(
    planned: Commits, start: str, end: str | None
) -> list[tuple[GameState, tuple[Event, ...]]]:
    """The written changes that lead from the state `start` to the state `end` (None: to the
    match's end, when a finished game is no longer the channel's)."""
    path: list[tuple[GameState, tuple[Event, ...]]] = []
    while start != end:
        options = planned.get(start, [])
        if end is None and not options:
            break
        after, events, before = next((o for o in options if o[0] == end), options[-1])
        path.append((before, events))
        start = after
    return path


async def play(url: str, planned: Commits, balances: Sequence[int], fmt: str, stakes: str,
               steps: list[tuple[str, int]]) -> None:  # fmt: skip
    client = aioredis.from_url(url, decode_responses=True)
    await client.flushdb()
    store, clock = RedisStore(client), Clock()
    table = Table(manager(store, clock=clock))
    names = NAMES[: len(balances)]
    for name, balance in zip(names, balances, strict=True):
        grant = Grant(name.lower(), name, balance - START, standing=Standing.MEMBER)
        await table.manager.handle(table.ctx("Root", admin=True), grant)
    options = StartOptions(format=fmt, timer=10, stakes=stakes)
    await table.manager.handle(table.ctx(names[0]), Start(options))
    for name in names[1:]:
        await table.manager.handle(table.ctx(name), Join())
    lobby = await table.manager.current(table.ctx("x"))
    assert lobby is not None and len(lobby.state.seats) == len(names), "everyone sat down"
    config = lobby.state.config
    ids = [name.lower() for name in names]
    model = StakesModel(config.stakes.kind is StakesKind.POT, config.stakes.amount,
                        fmt == "long", dict(zip(ids, balances, strict=True)))  # fmt: skip
    seen = lobby.state.to_str()
    table.last = await table.manager.handle(table.ctx(names[0]), Begin())
    for kind, who in [("begin", 0), *steps, *[("press", 0)] * TAIL]:
        record = await table.manager.current(table.ctx("x"))
        now = None if record is None else record.state.to_str()  # None: the match is over
        for before, events in follow(planned, seen, now):
            model.see(before, events)
        seen = now or ""
        found = await store.balances(SCOPE, ids)
        assert found == {p: model.balances[p] for p in ids}, (kind, who, steps)
        assert (0 if record is None else record.pot.total) == model.pot.total, (kind, steps)
        if record is None or record.state.over:
            return
        await step(table, clock, names, kind, who)
    raise AssertionError("the match did not end")


async def step(table: Table, clock: Clock, names: Sequence[str], kind: str, who: int) -> None:
    if kind == "timeout":
        clock.now += 11
        await table.manager.sweep()
    elif kind == "leave":
        await table.manager.handle(table.ctx(names[who % len(names)]), Leave())
    elif kind == "stop":
        await table.manager.handle(table.ctx(names[0]), Stop())
    elif kind == "press":
        await play_a_turn(table, who)


async def play_a_turn(table: Table, choice: int) -> None:
    """The player to act plays their turn by hand, pressing the `choice`-th button each time."""
    player = await table.to_act()
    for _ in range(MAX_PRESSES):
        record = await table.manager.current(table.ctx("x"))
        if player is None or record is None or await table.to_act() != player:
            return
        rows = game_view(record).rows  # the game message as it stands (a timeout moved it on)
        buttons = [b for row in rows for b in row if ":hint:" not in b.action_id]
        if not buttons:
            return
        reply = await table.manager.handle(
            table.ctx(player), Click(buttons[choice % len(buttons)].action_id)
        )
        assert not reply.refused, reply


@settings(max_examples=int(os.environ.get("STATEFUL_EXAMPLES", "40")), deadline=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(
    data=st.data(),
    fmt=st.sampled_from(("rounds:2", "rounds:3", "to-45", "elimination", "first-shut", "long")),
    stakes=st.sampled_from(("pot:5", "pot:20", "canoga", "canoga:2")),
    steps=st.lists(STEP, max_size=40),
)
def test_every_balance_is_what_the_rules_say_after_every_step(
    url: str, data: st.DataObject, fmt: str, stakes: str, steps: list[tuple[str, int]]
) -> None:
    """Each player's chips follow SPEC 4 step by step: antes, capped payments, side pots,
    the shut's double, Canoga, refunds, and nothing charged to a player who left."""
    if fmt == "long":  # the long game has no scores, so it refuses Canoga
        stakes = "pot:5" if stakes.startswith("canoga") else stakes
    ante = int(stakes.split(":")[1]) if ":" in stakes else 1
    humans = 2 if fmt == "long" else data.draw(st.integers(2, 3), label="humans")
    balances = data.draw(
        st.lists(st.integers(ante, 3 * ante + 5), min_size=humans, max_size=humans),
        label="balances",
    )
    PLANNED.clear()
    asyncio.run(play(url, PLANNED, balances, fmt, stakes, steps))
