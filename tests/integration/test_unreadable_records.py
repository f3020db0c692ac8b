"""One record that can't be read stays in its box: that game, member or setting answers one clear
line, is counted and logged once, and every other game on the server goes on, its timers too."""

from __future__ import annotations

import logging

import pytest
from redis.asyncio import Redis

from bot.telemetry import Telemetry
from core.service.api.commands import (
    Balance,
    Begin,
    Challenge,
    Click,
    Configure,
    Daily,
    Give,
    Join,
    Start,
    Stats,
    Stop,
)
from core.service.features.challenge.day import channel_of, day_of
from core.service.features.gifts import Recipient, Standing
from core.service.model.settings import StartOptions
from core.service.pipeline.sweep import SET_ASIDE_SECONDS
from core.store.redis_store import RedisStore
from core.text.i18n import t
from tests.integration.manager_helpers import SCOPE, Clock, Table, manager

GAME_LINE = t("en", "error.unreadable.game")
GAME_KEY = f"{SCOPE.tag}:game:bad"
BAL_KEY = f"{SCOPE.tag}:bal"


def counted(telemetry: Telemetry, kind: str) -> float:
    value = telemetry.registry.get_sample_value("shutbox_unreadable_records_total", {"kind": kind})
    return value or 0.0


def logged(caplog: pytest.LogCaptureFixture, record: str) -> int:
    return sum(record in line.getMessage() for line in caplog.records if "unreadable" in
               line.getMessage() and line.name == "shutbox")  # fmt: skip


async def tables(store: RedisStore, *channels: str) -> tuple[Telemetry, Clock, list[Table]]:
    """One manager (with the bot's telemetry as its listener) and a table per channel."""
    telemetry, clock = Telemetry(), Clock()
    shared = manager(store, clock=clock)
    shared.on_unreadable = telemetry.unreadable
    return telemetry, clock, [Table(shared, channel=channel) for channel in channels]


async def lobby(table: Table, *, timer: int = 30, stakes: str | None = None) -> None:
    options = StartOptions(timer=timer, stakes=stakes)
    table.last = await table.manager.handle(table.ctx("Ann"), Start(options))
    await table.manager.handle(table.ctx("Bob"), Join())
    table.last = await table.manager.handle(table.ctx("Ann"), Begin())


async def test_an_unreadable_game_answers_one_line_and_the_other_games_still_time_out(
    redis: Redis, store: RedisStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "shutbox")
    telemetry, clock, (bad, good) = await tables(store, "bad", "good")
    await lobby(bad)
    await lobby(good)
    await redis.hset(GAME_KEY, "r", "garbage")
    bad.manager.games.clear()  # as a process that never saw it before the damage

    for command in (Join(), Begin(), Start(StartOptions())):
        reply = await bad.manager.handle(bad.ctx("Cyd"), command)
        assert reply.private == GAME_LINE and reply.refused
    assert (await bad.manager.handle(bad.ctx("Cyd"), Stop())).private == GAME_LINE  # not admin

    clock.now += 31  # both deadlines pass: the good game's timeout still plays
    swept = await good.manager.sweep()
    assert [reply.game.game_id for _, reply in swept if reply.game] == [good.last.game.game_id]
    assert await redis.zscore(f"{SCOPE.tag}:deadlines", "bad") == clock.now + SET_ASIDE_SECONDS
    clock.now += 31  # the good game's next deadline: its timer fires again, the bad one waits
    assert len(await good.manager.sweep()) == 1
    clock.now += SET_ASIDE_SECONDS  # met again by the sweep, and again set aside
    await good.manager.sweep()

    assert counted(telemetry, "game") == 1
    assert logged(caplog, "game:bad") == 1
    assert await redis.hget(GAME_KEY, "r") == "garbage"  # nothing guessed, nothing removed


async def test_an_admin_stop_clears_the_unreadable_game(redis: Redis, store: RedisStore) -> None:
    _, _, (bad,) = await tables(store, "bad")
    await lobby(bad)
    await redis.hset(GAME_KEY, "v", "abc")  # a version that is not a number, this time
    bad.manager.games.clear()

    cleared = await bad.manager.handle(bad.ctx("Dee", admin=True), Stop())
    assert cleared.private == t("en", "stop.unreadable")
    assert cleared.public == (t("en", "notice.stopped", player="Dee"),)
    assert not await redis.exists(GAME_KEY)
    assert await redis.zscore(f"{SCOPE.tag}:deadlines", "bad") is None
    assert (await bad.manager.handle(bad.ctx("Dee", admin=True), Stop())).private == t(
        "en", "error.no_game"
    )
    opened = await bad.manager.handle(bad.ctx("Ann"), Start(StartOptions()))
    assert opened.game is not None and not opened.refused  # the channel is free again


async def test_clearing_a_staked_game_keeps_its_pot_and_says_so(
    redis: Redis, store: RedisStore
) -> None:
    """Who paid the antes was in the record: the pot is left whole, not refunded by guessing."""
    _, _, (bad,) = await tables(store, "bad")
    await lobby(bad, stakes="pot:5")
    await redis.hset(GAME_KEY, "r", "[1, 2")
    bad.manager.games.clear()
    balances_before = await redis.hgetall(BAL_KEY)

    cleared = await bad.manager.handle(bad.ctx("Dee", admin=True), Stop())
    assert cleared.private == t("en", "stop.unreadable.pot", chips=10)
    assert await redis.hgetall(BAL_KEY) == balances_before  # no chip created, moved or lost
    report = await store.verify_ledger(SCOPE)
    assert report.ok


async def test_an_unreadable_balance_answers_that_member_and_nobody_else(
    redis: Redis, store: RedisStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "shutbox")
    telemetry, _, (table,) = await tables(store, "c1")
    m = table.manager
    for player in ("Ann", "Bob"):
        await m.handle(table.ctx(player), Daily())
    await redis.hset(BAL_KEY, "ann", "abc")
    m.balances.clear()

    yours = t("en", "error.unreadable.balance.yours")
    for command in (Balance(), Daily(), Stats(), Give(Recipient("bob", "Bob", Standing.MEMBER), 5)):
        assert (await m.handle(table.ctx("Ann"), command)).private == yours
    theirs = await m.handle(table.ctx("Bob"), Give(Recipient("ann", "Ann", Standing.MEMBER), 5))
    assert theirs.private == t("en", "error.unreadable.balance")
    assert (await m.handle(table.ctx("Bob"), Balance())).private == t(
        "en", "economy.balance", balance=125
    )
    assert await redis.hget(BAL_KEY, "bob") == "125"  # the refused gift moved nothing
    assert counted(telemetry, "balance") == 1
    assert logged(caplog, "bal ann") == 1


async def test_a_balance_in_other_digits_is_unreadable_not_read_as_a_number(
    redis: Redis, store: RedisStore
) -> None:
    """`٣` is 3 to Python's int() and nothing to the commit script: one rule, unreadable."""
    telemetry, _, (table,) = await tables(store, "c1")
    await redis.hset(BAL_KEY, "ann", "٣")
    reply = await table.manager.handle(table.ctx("Ann"), Balance())
    assert reply.private == t("en", "error.unreadable.balance.yours")
    assert counted(telemetry, "balance") == 1


async def test_stats_show_a_dash_for_each_number_that_cannot_be_read(
    redis: Redis, store: RedisStore
) -> None:
    """A counter stored as `²` or `٣` is set aside in its own place; the rest still shows."""
    _, _, (table,) = await tables(store, "c1")
    rules = "t9.d2.sum-or-dice.1d.sum"
    fields = {"games": "²", "wins": "1", "rounds": "٣", "net": "-5", f"turns:{rules}": "2",
              f"sum:{rules}": "²", f"best:{rules}": "٣", "decisions": "4", "decisions_best": "²"}
    await redis.hset(f"{SCOPE.tag}:stats:ann", mapping=fields)  # type: ignore[arg-type]
    text = "\n".join((await table.manager.handle(table.ctx("Ann"), Stats(all_time=True))).public)
    assert "Matches: — played, 1 won · Rounds: — played" in text
    assert "Net from games: -5" in text
    assert "best —, average — over 2 turns" in text
    assert "Review accuracy: —% over 4 decisions" in text


async def test_stats_leave_out_a_challenge_streak_that_cannot_be_read(
    redis: Redis, store: RedisStore
) -> None:
    _, _, (table,) = await tables(store, "c1")
    await redis.hset(f"{SCOPE.tag}:challenge:streak", "ann", "2027-01-15 ² 1 1")
    text = "\n".join((await table.manager.handle(table.ctx("Ann"), Stats())).public)
    assert "Matches: 0 played" in text and "streak" not in text


async def test_a_game_whose_player_balance_is_unreadable_waits_and_the_rest_time_out(
    redis: Redis, store: RedisStore
) -> None:
    """A staked game can't settle on a balance it can't read: set aside, like a bad record."""
    _, clock, (staked, free) = await tables(store, "staked", "free")
    await lobby(staked, stakes="pot:5")
    await lobby(free)
    await redis.hset(BAL_KEY, "bob", "12x")
    staked.manager.games.clear()
    staked.manager.balances.clear()
    clock.now += 31
    swept = await free.manager.sweep()
    assert [reply.game.game_id for _, reply in swept if reply.game] == [free.last.game.game_id]
    assert await redis.zscore(f"{SCOPE.tag}:deadlines", "staked") == clock.now + SET_ASIDE_SECONDS


async def test_an_unreadable_setting_falls_back_to_its_default_and_says_so(
    redis: Redis, store: RedisStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "shutbox")
    telemetry, _, (table,) = await tables(store, "c1")
    await redis.hset(f"{SCOPE.tag}:cfg", mapping={"timer": "soon", "daily": "40"})
    shown = await table.manager.handle(table.ctx("Ann"), Configure())
    assert shown.private is not None
    assert "timer=60" in shown.private and "daily=40" in shown.private
    assert t("en", "config.unreadable", settings="timer") in shown.private
    opened = await table.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    assert not opened.refused  # the server goes on with the default timer
    assert counted(telemetry, "config") == 1
    assert logged(caplog, "cfg timer") == 1
    saved = await table.manager.handle(table.ctx("Dee", admin=True), Configure({"daily": "30"}))
    assert await redis.hget(f"{SCOPE.tag}:cfg", "timer") == "60"  # saving wrote it afresh
    assert saved.private is not None and "can’t be read" not in saved.private


async def test_a_key_of_the_wrong_type_is_one_unreadable_game(
    redis: Redis, store: RedisStore
) -> None:
    _, clock, (bad, good) = await tables(store, "bad", "good")
    await lobby(bad)
    await lobby(good)
    await redis.delete(GAME_KEY)
    await redis.set(GAME_KEY, "not a hash")
    bad.manager.games.clear()
    assert (await bad.manager.handle(bad.ctx("Ann"), Join())).private == GAME_LINE
    clock.now += 31
    assert len(await good.manager.sweep()) == 1
    cleared = await bad.manager.handle(bad.ctx("Dee", admin=True), Stop())
    assert cleared.private == t("en", "stop.unreadable")
    assert not await redis.exists(GAME_KEY)


async def test_an_unreadable_challenge_attempt_says_so_in_its_own_words(
    redis: Redis, store: RedisStore
) -> None:
    """No `/shutbox stop` reaches a challenge attempt, so its line does not point to one."""
    _, clock, (table,) = await tables(store, "c1")
    m = table.manager
    reply = await m.handle(table.ctx("Ann"), Challenge())
    assert reply.game is not None
    channel = channel_of(day_of(clock()), "ann")
    await redis.hset(f"{SCOPE.tag}:game:{channel}", "r", "{}")
    m.games.clear()
    button = reply.game.rows[0][0].action_id
    pressed = await m.handle(table.ctx("Ann"), Click(button))
    assert pressed.private == t("en", "error.unreadable.challenge")
