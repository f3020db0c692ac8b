"""Chips as a newcomer sees them in the playground (issue 32): a player who runs out of chips
plays on all in and wins nothing they did not stake; a match the timer played alone says why
its rounds pay nobody."""

from __future__ import annotations

from redis.asyncio import Redis

from adapters.console import Playground
from core.game.dice import SeededDice
from tests.e2e.test_console import chips, make, play_out, send_all

NOON = 1_800_000_000.0


async def test_a_player_with_no_chips_left_wins_none_of_the_pot(redis: Redis) -> None:
    """Ann (88 chips) against Root (108) in `start pot:50 rounds:3`: round 2 takes her last 38
    and says she is all in, round 3 she wins with nothing in, and Root's 50 go back to Root."""
    playground = make(redis, SeededDice(1), name="Root")
    await send_all(playground, "grant Root 8", "as Ann", "grant Ann -12")
    lobby = await send_all(playground, "start pot:50 rounds:3", "as Root", "join")
    assert (
        "⚠️ Ann has 88 chips, less than the 300 a player can lose here. Once they run out, Ann "
        "plays on all in and can win from each other player only what Ann put in."
    ) in lobby
    out = "\n".join([*await send_all(playground, "go"), *await play_out(playground)])
    assert (
        "💰 Ann → the pot: 38 chips\n"
        "🪙 Ann had only 38 chips for the ante of 50, so Ann plays this round all in and can win "
        "from each other player only as much as Ann put in."
    ) in out
    assert (
        "🪙 Ann has no chips left, so Ann plays this round all in and can win none of the pot."
    ) in out
    assert (
        "Round 3: Ann 7, Root 10 — winner: Ann\n"
        "💰 The pot → Root: 50 chips\n"
        "🪙 Ann had no chips left to put in the pot, so Ann wins none of it: "
        "its 50 chips go to Root."
    ) in out
    assert await chips(playground, "Ann") == 0
    assert await chips(playground, "Root") == 196


async def play_by_the_timer(lang: str, redis: Redis) -> tuple[Playground, list[str]]:
    """Root and Bob start `pot:3 rounds:2` and never press a button."""
    now = [NOON]
    playground = make(redis, SeededDice(3), name="Root", now=now)
    out = await send_all(playground, f"config lang={lang}", "start pot:3 rounds:2 timer=30",
                         "as Bob", "join", "as Root", "go")  # fmt: skip
    for _ in range(100):
        if playground.view is not None and playground.view.over:
            return playground, out
        now[0] += 31
        out += await playground.tick()
    raise AssertionError("the timer did not end the match")


async def test_a_round_the_timer_played_alone_says_why_it_pays_nobody(redis: Redis) -> None:
    """Each round summary of a void match says why the pot goes back before it does."""
    _, lines = await play_by_the_timer("en", redis)
    out = "\n".join(lines)
    why = (
        "↩ Nobody has made a move of their own in this match yet, so this round wins no chips: "
        "each stake goes back to its player."
    )
    assert (
        f"Round 1: Root 13, Bob 8 — winner: Bob\n{why}\n"
        "💰 The pot → Root: 3 chips\n💰 The pot → Bob: 3 chips"
    ) in out
    assert out.count(why) == 2
    assert "Match over: No winner this time." in out


async def test_the_void_round_is_told_in_danish(redis: Redis) -> None:
    _, lines = await play_by_the_timer("da", redis)
    out = "\n".join(lines)
    assert (
        "↩ Ingen har endnu selv truffet et valg i denne kamp, så runden vinder ingen jetoner: "
        "hver indsats går tilbage til sin spiller."
    ) in out


async def test_a_void_match_s_review_and_stats_say_it_counted_for_nothing(redis: Redis) -> None:
    """`review` and the Review button say the timer played; `stats` counts nothing."""
    playground, _ = await play_by_the_timer("en", redis)
    timed = "There is no decision of yours to grade in that match: the timer played your turns "
    assert (await playground.send("review"))[-1] == f"(to Root only) {timed}for you."
    assert (await send_all(playground, "as Bob", "review"))[-1] == f"(to Bob only) {timed}for you."
    pressed = "\n".join(await playground.send("Review"))
    assert timed in pressed and "no choices" not in pressed
    stats = "\n".join(await playground.send("stats"))
    assert "Matches: 0 played, 0 won · Rounds: 0 played, 0 won · Boxes shut: 0" in stats
    assert "Chips: 100 · Net from games: 0" in stats
