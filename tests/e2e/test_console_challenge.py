"""The daily challenge in the playground: a private screen for the player at the keyboard."""

from __future__ import annotations

from redis.asyncio import Redis

from core.game.dice import SeededDice
from tests.e2e.test_console import make, play_out

NOON = 1_800_014_400.0  # 2027-01-15 12:00 UTC


async def test_a_challenge_on_a_private_screen_then_the_board(redis: Redis) -> None:
    """`challenge` opens the private screen; letters press its buttons; the end shows the
    channel line and the share; a second `challenge` is refused; the board opens after."""
    playground = make(redis, SeededDice(1), "Ann", now=[NOON])
    opened = await playground.send("challenge")
    assert opened[0] == "--- private screen for Ann ---"
    assert opened[1] == "=== Daily challenge #1 ==="
    out = await play_out(playground)
    assert "Ann finished challenge #1: " in "\n".join(out)
    assert any(line.startswith("(to Ann only) Your result to share") for line in out)
    again = await playground.send("challenge")
    assert again[0].startswith("(to Ann only) You have played today’s challenge #1: ")
    board = await playground.send("leaderboard challenge")
    assert board[0].startswith("(to Ann only) Daily challenge #1 — today’s board")
    await playground.send("as Bob")
    locked = await playground.send("leaderboard challenge")
    assert locked == [
        "(to Bob only) Today’s challenge board opens once you have played today’s challenge: "
        "challenge."
    ]
