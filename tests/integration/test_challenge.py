"""The daily challenge through the real GameManager on a real Redis, with an injected clock."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.cli import main
from core.game.dice import MatchRecord
from core.game.rules import Rules
from core.service.api.commands import Challenge, Click, Leaderboard, Solo, Stats
from core.service.features.challenge.board import challenge_day
from core.service.features.challenge.day import Result, Streak, channel_of, day_of
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.settings import StartOptions
from core.service.model.views import Reply
from core.service.pipeline.cached import record_of
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import SCOPE, Clock, manager

DAY = 86_400
NOON = 1_800_014_400.0  # 2027-01-15 12:00 UTC
OTHER = Scope("test", "other-guild")
_requests = itertools.count()


def ctx(user: str, scope: Scope = SCOPE, channel: str = "c1") -> Context:
    return Context(scope, channel, user.lower(), user, request_id=f"ch{next(_requests)}")


async def play(
    m: GameManager, user: str, choose: int = 0, scope: Scope = SCOPE
) -> tuple[list[tuple[int, ...]], list[str], Reply]:
    """A member's whole challenge, pressing button `choose` each time (-1: the last one).
    Returns the rolls the game kept before the end, the buttons pressed, and the last reply."""
    reply = await m.handle(ctx(user, scope), Challenge())
    channel = channel_of(day_of(m.clock()), user.lower())
    rolls: list[tuple[int, ...]] = []
    pressed: list[str] = []
    while reply.game is not None and not reply.game.over:
        assert reply.game.private and reply.game.channel == channel
        m.games.clear()
        record = await record_of(m, scope, channel)
        assert record is not None
        rolls = list(record.rolls)
        buttons = [b for row in reply.game.rows for b in row]
        button = buttons[choose] if choose < len(buttons) else buttons[-1]
        pressed.append(button.label)
        reply = await m.handle(ctx(user, scope), Click(button.action_id))
    return rolls, pressed, reply


async def day_record(m: GameManager, scope: Scope = SCOPE):  # type: ignore[no-untyped-def]
    day = await challenge_day(m.store, scope, day_of(m.clock()))
    return day, day.record(await rules(m, scope))


async def rules(m: GameManager, scope: Scope = SCOPE) -> Rules:
    return StartOptions().config(await m.server_config(scope), solo=True).rules


async def test_members_of_one_server_get_the_days_dice_whatever_they_choose(
    store: RedisStore,
) -> None:
    """Every roll each member saw is the day's roll k (its first die, for one die)."""
    m = manager(store, clock=Clock(NOON))
    seen = {user: await play(m, user, choose) for user, choose in (("Ann", 0), ("Bob", -1))}
    _, record = await day_record(m)
    assert seen["Ann"][1] != seen["Bob"][1]  # they chose differently...
    for rolls, _, _ in seen.values():
        assert rolls
        for k, roll in enumerate(rolls):
            assert roll == record.rolls[k][: len(roll)]  # ...and saw the same dice
    shortest = min(len(seen["Ann"][0]), len(seen["Bob"][0]))
    assert [r[:1] for r in seen["Ann"][0][:shortest]] == [r[:1] for r in seen["Bob"][0][:shortest]]


async def test_two_servers_get_different_dice(store: RedisStore) -> None:
    m = manager(store, clock=Clock(NOON))
    (one, first), (two, second) = await day_record(m, SCOPE), await day_record(m, OTHER)
    assert one.seed != two.seed and first.rolls != second.rolls
    again, _ = await day_record(manager(store, clock=Clock(NOON + 3600)), SCOPE)
    assert again.seed == one.seed  # the secret is made once: the day's seed stays


async def test_a_second_attempt_is_refused_with_the_result_and_the_next_time(
    store: RedisStore,
) -> None:
    m = manager(store, clock=Clock(NOON))
    _, _, last = await play(m, "Ann")
    again = await m.handle(ctx("Ann"), Challenge())
    assert again.game is None and again.private is not None
    assert "You have played today’s challenge #1:" in again.private
    assert "Next challenge at 12:00\u202fAM UTC (in 12 hours)." in again.private
    assert last.public and last.public[0].startswith("Ann finished challenge #1: ")


async def test_an_abandoned_attempt_is_kept_and_shown_again(store: RedisStore) -> None:
    m = manager(store, clock=Clock(NOON))
    first = await m.handle(ctx("Ann"), Challenge())
    assert first.game is not None and not first.game.over
    again = await m.handle(ctx("Ann"), Challenge())
    assert again.game is not None and again.game.version == first.game.version
    assert again.private == (
        "You started today’s challenge already: here it is again, as you left it. "
        "One attempt a day."
    )
    # The next day its buttons are refused: its seed is public by then.
    m.clock.now = NOON + DAY  # type: ignore[attr-defined]
    button = first.game.rows[0][0].action_id
    late = await m.handle(ctx("Ann"), Click(button))
    assert late.private == (
        "That challenge is over: its day has ended. Today’s challenge: `/shutbox challenge`."
    )


async def test_the_days_record_verifies_and_fails_when_one_roll_changes(
    store: RedisStore, capsys: pytest.CaptureFixture[str]
) -> None:
    """The next day, `challenge` reveals yesterday's seed with its rolls; `shutbox verify`
    accepts that record, and refuses it once one die of one roll is changed."""
    clock = Clock(NOON)
    m = manager(store, clock=clock)
    await play(m, "Ann")
    day, record = await day_record(m)
    clock.now += DAY
    reply = await m.handle(ctx("Ann"), Challenge())
    assert reply.private is not None
    published = reply.private.split("using this record:\n`", 1)[1].split("`", 1)[0]
    assert MatchRecord.from_json(published) == record and day.seed in published
    assert main(["verify", published]) == 0
    assert "OK: the server seed matches the commitment and all 10 rolls" in capsys.readouterr().out
    rolls = list(record.rolls)
    rolls[2] = (rolls[2][0] % 6 + 1, *rolls[2][1:])
    tampered = replace(record, rolls=tuple(rolls)).to_json()
    assert main(["verify", tampered]) == 1
    assert capsys.readouterr().out.startswith("FAILED: roll 3 (nonce 2) shows ")


async def test_streaks_follow_consecutive_utc_days(store: RedisStore) -> None:
    clock = Clock(NOON)
    m = manager(store, clock=clock)
    for _ in range(3):
        await play(m, "Ann")
        clock.now += DAY
    clock.now += DAY  # a day missed
    _, _, last = await play(m, "Ann")
    streak = Streak.from_str((await store.hash(SCOPE, "challenge:streak"))["ann"])
    assert (streak.current, streak.best, streak.played) == (1, 3, 4)
    assert last.public[0].endswith("· 🔥 1")
    stats = await m.handle(ctx("Ann"), Stats())
    assert "Daily challenge: streak 🔥 1 (best 3), 4 days played" in stats.public[0]


async def test_nobody_elses_result_shows_before_playing(store: RedisStore) -> None:
    m = manager(store, clock=Clock(NOON))
    await play(m, "Ann")
    locked = await m.handle(ctx("Bob"), Leaderboard("challenge"))
    assert locked.public == () and locked.private == (
        "Today’s challenge board opens once you have played today’s challenge: "
        "`/shutbox challenge`."
    )
    stats = await m.handle(ctx("Bob"), Stats("ann", "Ann"))
    assert "Today’s challenge" not in stats.public[0]
    await play(m, "Bob", -1)
    board = await m.handle(ctx("Bob"), Leaderboard("challenge"))
    assert board.private is not None and board.public == ()
    assert board.private.startswith("**Daily challenge #1** — today’s board")
    assert "1. " in board.private and "Ann —" in board.private and "Bob —" in board.private
    stats = await m.handle(ctx("Bob"), Stats("ann", "Ann"))
    assert "Today’s challenge: " in stats.public[0]


async def test_challenge_touches_no_chips_ratings_or_other_boards(store: RedisStore) -> None:
    m = manager(store, clock=Clock(NOON))
    before = set(await store._redis.keys("*"))  # type: ignore[attr-defined]
    await play(m, "Ann")
    written = {k for k in await store._redis.keys("*") if k not in before}  # type: ignore[attr-defined]
    kept = {k.split("}:", 1)[1] if "}:" in k else k for k in written}
    # Besides the request ids and the end's reply (for a late click): the server's secret,
    # the day's results, the streaks and the display name. No chips, ratings or boards.
    plumbing = {k for k in kept if k.startswith(("req:", "last:"))} | {"stb:servers"}
    assert kept - plumbing == {"challenge", "challenge:2027-01-15", "challenge:streak", "names"}
    result = Result.from_str((await store.hash(SCOPE, "challenge:2027-01-15"))["ann"])
    assert result is not None and result.seconds == 0


async def test_the_private_screen_shows_the_commitment_never_the_seed(store: RedisStore) -> None:
    m = manager(store, clock=Clock(NOON))
    day, _ = await day_record(m)
    _, _, last = await play(m, "Ann")
    assert last.game is not None and last.game.over and last.game.rows == ()
    assert day.commitment in last.game.body and day.seed not in last.game.body
    assert all(day.seed not in text for text in (*last.public, last.private or ""))
    m.games.clear()
    first = await m.handle(ctx("Bob"), Challenge())
    assert first.game is not None and day.commitment in first.game.body


async def test_a_channels_game_and_a_challenge_in_it_stay_apart(store: RedisStore) -> None:
    """Ann plays her challenge in a channel with a running game: her challenge's buttons act on
    her challenge, an outdated one refreshes her private screen, and the channel's game is as
    it was."""
    m = manager(store, clock=Clock(NOON))
    solo = await m.handle(ctx("Bob"), Solo())
    assert solo.game is not None
    opened = await m.handle(ctx("Ann"), Challenge())
    assert opened.game is not None
    roll = opened.game.rows[0][0].action_id
    rolled = await m.handle(ctx("Ann"), Click(roll))
    assert rolled.game is not None and rolled.game.private
    stale = await m.handle(ctx("Ann"), Click(roll))
    assert stale.private == (
        "That button belongs to an earlier moment of the game; the game message now shows "
        "where it stands."
    )
    assert stale.game is not None and stale.game.private
    assert stale.game.version == rolled.game.version
    channel = await m.current(ctx("Bob"))
    assert channel is not None and channel.version == solo.game.version
    # Bob cannot press Ann's screen: a challenge button acts on the presser's own challenge.
    bobs = await m.handle(ctx("Bob"), Click(roll))
    assert bobs.game is None or bobs.game.channel != channel_of(day_of(NOON), "ann")
