"""A player written as a chat mention (`@Root`) in the playground means that player, as a
mention does on Discord and Slack; a mention of nobody at the table is refused (issue 32)."""

from __future__ import annotations

from redis.asyncio import Redis

from core.game.dice import SeededDice
from tests.e2e.test_console import chips, make, send_all


async def test_a_gift_to_at_root_reaches_root(redis: Redis) -> None:
    """`give @Root 5` pays Root, whose balance goes up; the chip board has no `@Root`."""
    playground = make(redis, SeededDice(1), name="Root")
    out = await send_all(playground, "balance", "as Ann", "give @Root 5")
    assert "Ann gave Root 5 chips." in "\n".join(out)
    assert await chips(playground, "Root") == 105
    assert await chips(playground, "Ann") == 95
    board = "\n".join(await playground.send("leaderboard chips"))
    assert "@" not in board and "Root" in board


async def test_every_command_that_takes_a_player_reads_the_mention(redis: Redis) -> None:
    """`grant`, `stats` and `rank` read `@Ann` as Ann, whatever the case typed."""
    playground = make(redis, SeededDice(1), name="Root")
    out = await send_all(playground, "as Ann", "balance", "as Root", "grant @ann 10")
    assert "Root granted Ann 10 chips from the bank (balance 110)." in "\n".join(out)
    assert await chips(playground, "Ann") == 110
    stats = await send_all(playground, "stats @Ann")
    assert stats[0].startswith("Stats for Ann ·")
    rank = "\n".join(await send_all(playground, "rank @Ann"))
    assert "Ann" in rank and "@Ann" not in rank


async def test_a_mention_of_nobody_at_the_table_is_refused(redis: Redis) -> None:
    """`grant @Bob -10` and `give @Zed 5` name nobody here: one private line, no new player,
    no chip moved."""
    playground = make(redis, SeededDice(1), name="Root")
    await send_all(playground, "as Ann", "balance", "as Root")
    refused = await playground.send("grant @Bob -10")
    assert refused == [
        "(to Root only) There is no player “@Bob” at this table (players: Ann, Root). "
        "as <name> brings a new player to the keyboard."
    ]
    await send_all(playground, "give @Zed 5", "stats @Zed")
    assert await chips(playground, "Root") == 100
    board = "\n".join(await send_all(playground, "leaderboard chips"))
    assert "Bob" not in board and "Zed" not in board


async def test_the_refusal_speaks_the_table_s_language(redis: Redis) -> None:
    playground = make(redis, SeededDice(1), name="Root")
    out = await send_all(playground, "config lang=da", "give @Zed 5")
    assert out[-1] == (
        "(kun til Root) Der er ingen spiller »@Zed« ved dette bord (spillere: Root). "
        "as <navn> sætter en ny spiller ved tastaturet."
    )


async def test_as_at_bob_seats_bob(redis: Redis) -> None:
    """`as @Bob` brings Bob to the keyboard (not a player called “@Bob”)."""
    playground = make(redis, SeededDice(1), name="Root")
    out = await send_all(playground, "as @Bob", "balance", "as Root", "give @bob 5")
    assert out[0] == "Bob is at the keyboard (the next button is pressed as Bob)."
    assert "Root gave Bob 5 chips." in "\n".join(out)
    assert await chips(playground, "Bob") == 105
