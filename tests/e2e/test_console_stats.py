"""`stats` and the boards as a newcomer reads them: a member with no game yet shows the chips
`balance` shows, `stats all` speaks of no single season, each line of the Danish and Norwegian
`stats` says what it is, and a board's average reads as `stats` reads it."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from core.game.dice import SeededDice
from tests.e2e.test_console import make, play_out, send_all

NOON = 1_800_014_400.0  # 2027-01-15 12:00 UTC


async def test_stats_of_a_member_with_no_game_yet_shows_the_chips_balance_shows(
    redis: Redis,
) -> None:
    playground = make(redis, SeededDice(1), name="Ann")
    await send_all(playground, "start", "as Root", "join", "as Ann", "go", "stop")
    (line,) = await playground.send("stats Root")
    balance = "\n".join(await send_all(playground, "as Root", "balance"))
    assert line == "Root has played no game here yet. Chips: 100 (what every member starts with)."
    assert "You have 100 chips." in balance


async def test_stats_all_names_the_current_season_for_the_rating(redis: Redis) -> None:
    playground = make(redis, SeededDice(1), name="Ann")
    text = "\n".join(await playground.send("stats all"))
    assert "none yet this season" not in text
    assert "Rating: none yet in the current season (ratings start afresh each season" in text


@pytest.mark.parametrize("lang", ["en", "da", "nb"])
async def test_each_stats_line_begins_with_its_own_words(redis: Redis, lang: str) -> None:
    """After today's challenge: the streak line and today's result line are told apart."""
    playground = make(redis, SeededDice(1), name="Ann", now=[NOON])
    await send_all(playground, f"config lang={lang}", "challenge")
    await play_out(playground)
    lines = (await playground.send("stats"))[1:]
    starts = [line.split(":")[0].strip() for line in lines if ":" in line]
    assert len(starts) == 5  # games, chips, rating, the challenge streak, today's result
    assert len(set(starts)) == len(starts), starts


async def test_a_boards_average_reads_as_stats_reads_it(redis: Redis) -> None:
    """A whole average is `9.0` on `leaderboard average` as in `stats`, not `9`."""
    playground = make(redis, SeededDice(1), name="Ann")
    await send_all(playground, "start rounds:3", "as Root", "join", "as Ann", "go")
    await play_out(playground)
    stats = "\n".join(await playground.send("stats"))
    board = "\n".join(await playground.send("leaderboard average"))
    assert "Classic: best 7, average 9.0 over 3 turns" in stats
    assert "2. Ann — 9.0" in board.splitlines()


@pytest.mark.parametrize(("lang", "matches", "practice"), [
    ("en", "Matches:", "Practice against bots: 1 match"),
    ("da", "Kampe:", "Træning mod bots: 1 kamp"),
    ("nb", "Kamper:", "Trening mot boter: 1 kamp"),
])  # fmt: skip
async def test_stats_call_a_match_by_one_word(
    redis: Redis, lang: str, matches: str, practice: str
) -> None:
    """The matches line and the practice line under it name a match alike: a newcomer whose
    one match was practice reads 0 matches and 1 practice match, not 0 games and 1 match."""
    playground = make(redis, SeededDice(1), name="Ann")
    await send_all(playground, f"config lang={lang}", "start", "bot", "go")
    await play_out(playground)
    lines = await playground.send("stats")
    assert lines[1].startswith(f"{matches} 0 ") and any(practice in line for line in lines)
