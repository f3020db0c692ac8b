"""Random command sequences from several players and two bot processes keep the economy sound.

Invariants after every step: chips are conserved (mint included, every account sums to 0),
the journal replays to the balances, no player balance is negative, each pot account holds
exactly what its game's pot says, and every stored game parses back to a valid engine state.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Iterator

import pytest
import redis.asyncio as aioredis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from bot.redis_server import EmbeddedRedis
from core.game.state import GameState
from core.service.api.commands import (
    AddBot,
    Begin,
    Cancel,
    Click,
    Command,
    Daily,
    Grant,
    Join,
    Leave,
    Start,
    Stop,
)
from core.service.features.gifts import Standing
from core.service.model.record import GameRecord
from core.service.model.settings import StartOptions
from core.service.model.views import GameView, Reply
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager

PLAYERS = ("Ann", "Bob", "Cid")
CHANNELS = ("c1", "c2")
STAKES = ("none", "pot:3", "canoga", "canoga:2")
FORMATS = ("rounds:1", "rounds:2", "to-45", "elimination", "first-shut", "long")


@pytest.fixture(scope="module")
def sync_redis_url() -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedRedis(folder)
        asyncio.run(server.start())
        yield server.url
        asyncio.run(server.stop())


class Economy(RuleBasedStateMachine):
    url = ""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.client = aioredis.from_url(self.url, decode_responses=True)
        self.run(self.client.flushdb())
        self.store = RedisStore(self.client)
        self.clock = Clock()
        self.managers = [manager(self.store, clock=self.clock) for _ in range(2)]
        self.views: dict[str, list[GameView]] = {c: [] for c in CHANNELS}

    def run(self, work):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(work)

    def table(self, channel: str, which: int = 0) -> Table:
        return Table(self.managers[which], channel=channel)

    def seen(self, channel: str, reply: Reply) -> None:
        if reply.game is not None:
            self.views[channel].append(reply.game)

    @rule(host=st.sampled_from(PLAYERS), channel=st.sampled_from(CHANNELS),
          stakes=st.sampled_from(STAKES), fmt=st.sampled_from(FORMATS))  # fmt: skip
    def start(self, host: str, channel: str, stakes: str, fmt: str) -> None:
        table = self.table(channel)
        options = StartOptions(stakes=stakes, format=fmt)
        self.seen(channel, self.run(table.manager.handle(table.ctx(host), Start(options))))

    @rule(player=st.sampled_from(PLAYERS), channel=st.sampled_from(CHANNELS),
          command=st.sampled_from((Join(), Leave(), AddBot(), Begin(), Cancel())))  # fmt: skip
    def lobby(self, player: str, channel: str, command: Command) -> None:
        table = self.table(channel)
        self.seen(channel, self.run(table.manager.handle(table.ctx(player), command)))

    @precondition(lambda self: any(self.views.values()))
    @rule(data=st.data(), twice=st.booleans())
    def click(self, data: st.DataObject, twice: bool) -> None:
        """Someone presses a button of a current or older message, maybe delivered twice."""
        channel = data.draw(st.sampled_from([c for c in CHANNELS if self.views[c]]))
        view = data.draw(st.sampled_from(self.views[channel][-3:]))
        buttons = [b.action_id for row in view.rows for b in row]
        if not buttons:
            return
        button = data.draw(st.sampled_from(buttons))
        ctx = self.table(channel).ctx(data.draw(st.sampled_from(PLAYERS)))
        if twice:
            replies = self.run(self.both(ctx, button))
            assert replies[0] == replies[1], replies
        else:
            replies = [self.run(self.managers[0].handle(ctx, Click(button)))]
        self.seen(channel, replies[0])

    async def both(self, ctx: object, button: str) -> list[Reply]:
        """The same delivery to both bot processes at once."""
        return list(await asyncio.gather(*(m.handle(ctx, Click(button)) for m in self.managers)))  # type: ignore[arg-type]

    @rule(seconds=st.integers(min_value=1, max_value=700))
    def time_passes(self, seconds: int) -> None:
        self.clock.now += seconds
        for _, reply in self.run(self.managers[1].sweep()):
            if reply.game is not None:
                self.views[reply.game.channel].append(reply.game)

    @rule(player=st.sampled_from(PLAYERS), channel=st.sampled_from(CHANNELS), admin=st.booleans())
    def stop(self, player: str, channel: str, admin: bool) -> None:
        table = self.table(channel, 1)
        self.seen(channel, self.run(table.manager.handle(table.ctx(player, admin=admin), Stop())))

    @rule(player=st.sampled_from(PLAYERS))
    def daily(self, player: str) -> None:
        self.run(self.managers[0].handle(self.table("c1").ctx(player), Daily()))

    @rule(player=st.sampled_from(PLAYERS), amount=st.integers(min_value=-150, max_value=150))
    def grant(self, player: str, amount: int) -> None:
        ctx = self.table("c1").ctx("Admin", admin=True)
        self.run(
            self.managers[1].handle(
                ctx, Grant(player.lower(), player, amount, standing=Standing.MEMBER)
            )
        )

    @invariant()
    def ledger_is_sound(self) -> None:
        report = self.run(self.store.verify_ledger(SCOPE))
        assert report.ok and report.total == 0, report
        balances = self.run(self.client.hgetall(f"{SCOPE.tag}:bal"))
        assert all(int(v) >= 0 for k, v in balances.items() if k != "mint"), balances

    @invariant()
    def games_are_valid_and_pots_match(self) -> None:
        for channel in CHANNELS:
            stored = self.run(self.store.load(SCOPE, channel))
            pot = int(self.run(self.client.hget(f"{SCOPE.tag}:bal", f"pot:{channel}")) or 0)
            if stored is None:
                assert pot == 0
                continue
            record = GameRecord.from_str(stored.record, channel)
            assert record.version == stored.version
            assert GameState.from_str(record.state.to_str()) == record.state
            assert record.pot.total == pot

    def teardown(self) -> None:
        self.run(self.client.aclose())
        self.loop.close()


def test_random_command_sequences_keep_the_economy_sound(sync_redis_url: str) -> None:
    """Hypothesis drives random commands; chips, journal and stored games stay consistent."""
    Economy.url = sync_redis_url
    machine = Economy.TestCase
    machine.settings = settings(
        max_examples=int(os.environ.get("STATEFUL_EXAMPLES", "30")),
        stateful_step_count=40,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    machine().runTest()
