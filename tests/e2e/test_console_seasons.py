"""Seasons in the playground: `season`, `season end [reset_chips=yes]` and archived boards."""

from __future__ import annotations

from redis.asyncio import Redis

from core.game.dice import SeededDice
from tests.e2e.test_console import make, play_out, send_all


async def test_a_season_ends_and_its_board_stays_readable(redis: Redis) -> None:
    """After Ann and Bob play a pot match, `season end reset_chips=yes` announces Season 2,
    the current wins board is empty and `leaderboard wins season=1` still shows last season."""
    playground = make(redis, SeededDice(5), name="Ann")
    assert "Season 1 started on" in "\n".join(await playground.send("season"))
    await send_all(playground, "start stakes=pot:5 rounds=2", "as Bob", "join", "go")
    await play_out(playground)
    ended = "\n".join(await playground.send("season end reset_chips=yes"))
    assert "🏁 Season 1 is over; Season 2 starts now." in ended
    assert "everyone starts again with 100 chips" in ended
    assert "Nobody on this board yet" in "\n".join(await playground.send("leaderboard wins"))
    assert "You have 100 chips." in "\n".join(await playground.send("balance"))
    before = "\n".join(await playground.send("leaderboard wins season=1"))
    assert "Season 1" in before and "Nobody" not in before
    refused = "\n".join(await playground.send("leaderboard wins season=9"))
    assert "There is no ended Season 9; this is Season 2." in refused
    usage = "\n".join(await playground.send("season later"))
    assert "Usage: season, or season end [reset_chips=yes]." in usage


async def test_empty_or_stray_season_options_are_refused_with_one_line(redis: Redis) -> None:
    """`season end reset_chips=` (empty) and `season reset_chips=no` (without end) are refused,
    each with one line, and end nothing."""
    playground = make(redis, SeededDice(5), name="Ann")
    empty = await playground.send("season end reset_chips=")
    assert empty == ["(to Ann only) “” is not a valid value for reset_chips. Allowed: yes, no."]
    stray = await playground.send("season reset_chips=no")
    assert stray == ["(to Ann only) reset_chips goes only with season end."], stray
    assert "Season 1 started on" in "\n".join(await playground.send("season"))
