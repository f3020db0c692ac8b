"""Each answer describes the state it is given in: a lobby is not a running game, a player
already playing is told so, one who left is shown as left, and a stop says once what it did
and what the totals hold."""

from __future__ import annotations

from redis.asyncio import Redis

from core.game.dice import SeededDice
from tests.e2e.test_console import make, send_all


async def test_start_with_a_lobby_open_points_to_the_lobby(redis: Redis) -> None:
    playground = make(redis, SeededDice(1), name="Ann")
    await playground.send("start")
    assert await send_all(playground, "as Root", "start") == [
        "Root is at the keyboard (the next button is pressed as Root).",
        "(to Root only) A lobby is already open in this channel (host: Ann): press Join, or join.",
    ]
    (own,) = (await send_all(playground, "as Ann", "start"))[1:]
    assert own == ("(to Ann only) A lobby is already open in this channel and you are in it "
                   "(host: Ann); the host presses Start.")  # fmt: skip
    await send_all(playground, "as Root", "join", "as Ann", "go")
    (running,) = (await send_all(playground, "as Bo", "start"))[1:]
    assert running == ("(to Bo only) A game is already being played in this channel (host: Ann);"
                       " a new one can start when it ends.")  # fmt: skip


async def test_join_in_your_own_running_solo_says_you_are_in_it(redis: Redis) -> None:
    playground = make(redis, SeededDice(1), name="Ann")
    await playground.send("solo")
    assert await playground.send("join") == ["(to Ann only) You are already in this game."]


async def test_join_after_leaving_a_running_game_points_to_the_next_one(redis: Redis) -> None:
    """Root left: he is out of this game, not "already in" it."""
    playground = make(redis, SeededDice(1), name="Ann")
    await send_all(playground, "start", "as Root", "join", "as Bo", "join", "as Ann", "go")
    out = await send_all(playground, "as Root", "leave", "join")
    assert out[-1] == (
        "(to Root only) The game has already started; new players can join the next one."
    )


async def test_a_player_who_typed_leave_shows_as_left(redis: Redis) -> None:
    """`leave` is not three missed turns: the score line says left, not dropped."""
    playground = make(redis, SeededDice(1), name="Ann")
    await send_all(playground, "start rounds:2", "as Root", "join", "as Bo", "join", "as Ann")
    await playground.send("go")
    out = await send_all(playground, "as Root", "leave")
    assert "Root: — (total 0) · left" in out and not any("dropped" in line for line in out)


async def test_a_stop_says_who_what_counts_and_the_finished_rounds_once_each(
    redis: Redis,
) -> None:
    """Stopped in round 2: the message says who stopped and that round 2 does not count; the
    summary says the totals are of the one finished round."""
    playground = make(redis, SeededDice(1), name="Ann")
    await send_all(playground, "start rounds:3", "as Root", "join", "as Ann", "go")
    while playground.view is not None and not playground.view.title.startswith("Round 2"):
        await playground.send("a")
    out = await playground.send("stop")
    stopping = [line for line in out if "stop" in line.casefold()]
    assert stopping == [
        "⏹ Ann stopped the game.",
        "Stopped in round 2: that round does not count in the totals.",
        "Match over: stopped after 1 finished round; the totals count only that one",
    ]
