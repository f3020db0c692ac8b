"""Rate limits per member (issue 23): counted in Redis and shared by every process; past the
limit one private line, nothing changed, and a metric counts it."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from redis.asyncio import Redis

from bot.runtime import Runtime, open_runtime
from bot.sections import CoreSettings
from core.game.dice import SeededDice
from core.service.api.commands import Balance, Click, Command, Daily, Solo, Start
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.rate_limits import Limit
from core.service.model.settings import StartOptions
from core.service.model.views import Reply

SCOPE = Scope("test", "guild")
TOO_FAST = re.compile(r"You're going a bit fast; try again in (\d+) s\.")
GAMES_TOO_FAST = re.compile(r"You're opening games a bit fast; try again in (\d+) s\.")


def ctx(user: str, channel: str = "c1") -> Context:
    return Context(SCOPE, channel, user, user.title())


@pytest.fixture
async def bots(redis: Redis, redis_url: str, tmp_path: Path) -> AsyncIterator[list[Runtime]]:
    """Two bot processes' runtimes on one Redis, with the default limits."""
    async with AsyncExitStack() as stack:
        yield [await stack.enter_async_context(
            open_runtime(redis_url, tmp_path / str(n), SeededDice(n), core=CoreSettings()))
            for n in range(2)]  # fmt: skip


def refusals(replies: list[Reply], pattern: re.Pattern[str]) -> list[int]:
    """The seconds each refused reply names."""
    found = [pattern.fullmatch(r.private or "") for r in replies]
    return [int(m[1]) for m in found if m]


def refused_count(runtime: Runtime, limit: str) -> float:
    value = runtime.telemetry.registry.get_sample_value(
        "shutbox_rate_limited_total", {"limit": limit}
    )
    return value or 0.0


async def test_the_default_never_stops_normal_play() -> None:
    """50 commands per 10 s: a fast player clicks about 3 times a second."""
    assert CoreSettings().limits().commands == Limit(50, 10)
    assert CoreSettings().limits().games == Limit(10, 60)


async def test_sixty_commands_in_three_seconds_are_partly_refused(bots: list[Runtime]) -> None:
    """Split over two processes, one count: 50 answered, 10 refused with the line; Bob and
    the game running meanwhile go on untouched; nothing refused changed anything."""
    first, second = bots
    await first.manager.handle(ctx("ann"), Daily())
    solo = await first.manager.handle(ctx("bob", "c9"), Solo(StartOptions()))
    started = asyncio.get_running_loop().time()
    replies = []
    for n in range(60):
        bot = bots[n % 2]
        command: Command = Daily() if n == 59 else Balance()
        replies.append(await bot.manager.handle(ctx("ann"), command))
    spent = asyncio.get_running_loop().time() - started
    print(f"60 commands in {spent:.2f} s")
    refused = refusals(replies, TOO_FAST)
    assert len(refused) == 60 - 49  # the daily claim before counted too
    assert all(1 <= s <= 10 for s in refused)
    assert all(r.public == () and r.game is None for r in replies[49:])
    assert replies[0].private == "You have 125 chips."
    assert refused_count(first, "commands") + refused_count(second, "commands") == 11
    bob = await second.manager.handle(ctx("bob"), Balance())
    assert bob.private == "You have 100 chips."
    assert solo.game is not None
    roll = solo.game.rows[0][0].action_id
    rolled = await second.manager.handle(ctx("bob", "c9"), Click(roll))
    assert rolled.game is not None and rolled.game.version > solo.game.version
    assert (await first.store.verify_ledger(SCOPE)).ok
    assert int(await first.redis.hget(f"{SCOPE.tag}:bal", "ann")) == 125  # no second daily


async def test_the_window_passes_and_the_member_goes_on(
    redis: Redis, redis_url: str, tmp_path: Path
) -> None:
    core = CoreSettings(rate_limit="3/1")
    async with open_runtime(redis_url, tmp_path, core=core) as bot:
        replies = [await bot.manager.handle(ctx("ann"), Balance()) for _ in range(4)]
        assert refusals(replies, TOO_FAST) == [1]
        await asyncio.sleep(1.1)
        again = await bot.manager.handle(ctx("ann"), Balance())
        assert again.private == "You have 100 chips."


async def test_new_games_are_limited_separately(
    redis: Redis, redis_url: str, tmp_path: Path
) -> None:
    """Three solo games a minute: the fourth, in another channel, is refused and not opened."""
    core = CoreSettings(game_rate_limit="3/60")
    async with open_runtime(redis_url, tmp_path, core=core) as bot:
        opened = [await bot.manager.handle(ctx("ann", f"c{n}"), Solo(StartOptions()))
                  for n in range(4)]  # fmt: skip
        assert [r.game is not None for r in opened] == [True, True, True, False]
        assert refusals(opened, GAMES_TOO_FAST) == [60]
        assert await bot.manager.current(ctx("ann", "c3")) is None
        assert refused_count(bot, "games") == 1
        lobby = await bot.manager.handle(ctx("bob", "c3"), Start(StartOptions()))
        assert lobby.game is not None
        balance = await bot.manager.handle(ctx("ann"), Balance())
        assert balance.private == "You have 100 chips."


@pytest.mark.parametrize("text", ["fast", "10", "0/10", "5/0", "5/99999"])
def test_a_bad_limit_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Limit.parse(text)


@pytest.mark.parametrize(
    ("text", "limit"), [("off", None), ("0", None), (" 40 / 10s ", Limit(40, 10))]
)
def test_a_limit_is_read(text: str, limit: Limit | None) -> None:
    assert Limit.parse(text) == limit


async def test_clicks_count_in_their_commit_across_processes(
    redis: Redis, redis_url: str, tmp_path: Path
) -> None:
    """A click's count rides in its commit script: the same counter as every other command,
    shared by two processes; past the limit a click is refused and its game stays as it was.
    A click that commits nothing (a stale button) still counts."""
    core = CoreSettings(rate_limit="4/60")
    async with AsyncExitStack() as stack:
        first, second = [await stack.enter_async_context(
            open_runtime(redis_url, tmp_path / str(n), SeededDice(n), core=core))
            for n in range(2)]  # fmt: skip
        solo = await first.manager.handle(ctx("ann", "c5"), Solo(StartOptions()))  # 1
        assert solo.game is not None
        roll = solo.game.rows[0][0].action_id
        rolled = await second.manager.handle(ctx("ann", "c5"), Click(roll))  # 2
        assert rolled.game is not None and rolled.private is None
        stale = await first.manager.handle(ctx("ann", "c5"), Click(roll))  # 3: nothing to commit
        assert stale.game is None or stale.game.version == rolled.game.version
        move = rolled.game.rows[0][0].action_id
        moved = await first.manager.handle(ctx("ann", "c5"), Click(move))  # 4
        assert moved.game is not None and moved.game.version > rolled.game.version
        stored = await redis.hget(f"{SCOPE.tag}:game:c5", "v")
        next_button = moved.game.rows[0][0].action_id
        again = await second.manager.handle(ctx("ann", "c5"), Click(next_button))  # 5: refused
        assert [1 <= s <= 60 for s in refusals([again], TOO_FAST)] == [True]
        assert await redis.hget(f"{SCOPE.tag}:game:c5", "v") == stored  # nothing applied
        assert refused_count(second, "commands") == 1
        assert await redis.get(f"{SCOPE.tag}:rate:cmd:ann") == "5"


async def test_a_counter_without_a_lifetime_gets_one_when_it_refuses(
    redis: Redis, redis_url: str, tmp_path: Path
) -> None:
    """A counter gets its window when it is created; one found without it (written by hand, or
    before) gets it at its next refusal, in a click's commit and in a plain command alike, so
    it never holds a member back for good."""
    core = CoreSettings(rate_limit="3/60")
    key = f"{SCOPE.tag}:rate:cmd:ann"
    async with open_runtime(redis_url, tmp_path, core=core) as bot:
        solo = await bot.manager.handle(ctx("ann", "c6"), Solo(StartOptions()))
        assert solo.game is not None and 0 < await redis.pttl(key) <= 60_000
        await redis.set(key, "3")  # no lifetime
        roll = solo.game.rows[0][0].action_id
        refused = await bot.manager.handle(ctx("ann", "c6"), Click(roll))
        assert refusals([refused], TOO_FAST) == [60]
        assert 0 < await redis.pttl(key) <= 60_000
        await redis.set(key, "3")
        plain = await bot.manager.handle(ctx("ann"), Balance())
        assert refusals([plain], TOO_FAST) == [60]
        assert 0 < await redis.pttl(key) <= 60_000
