"""The long game, read as a newcomer: the lobby, the hint's button, the header, the end."""

from __future__ import annotations

from redis.asyncio import Redis

from core.game.dice import SeededDice
from tests.e2e.test_console import make, play_out, send_all


async def test_the_long_game_says_what_it_is_and_how_it_ended(redis: Redis) -> None:
    playground = make(redis, SeededDice(4))
    lobby = "\n".join(await send_all(playground, "start long pot:5", "bot"))
    assert "golf scoring" not in lobby and "a round" not in lobby
    assert "pot, 5 chips for the match" in lobby
    out = await send_all(playground, "go", "hint")
    assert "  [a] Roll  [b] Hint" in out
    assert out[-1].startswith("(to Cy only) Best: Roll — your chance to win")
    assert "Cy closes tiles · 🤖 Bot 1 opens them" in out
    out += await play_out(playground)
    text = "\n".join(out)
    assert "Match over: 🏆 " in text and "wins the match." in text
    assert "opened the whole box again." in text or "shut the whole box." in text
    assert "💰 the pot" not in text


async def test_the_opener_is_asked_to_open_and_a_shut_box_counts(redis: Redis) -> None:
    """The opener's roll asks for closed tiles to open, never tiles to close; Root's shutting
    the whole box counts as a box shut in `stats`, for Root only."""
    playground = make(redis, SeededDice(2), name="Root")
    out = await send_all(playground, "start long", "as Ann", "join", "as Root", "go")
    out += await play_out(playground)
    text = "\n".join(out)
    assert "Ann rolled ⚄ ⚀ = 6: pick the closed tiles to open." in text
    assert not [line for line in out if line.startswith("Ann rolled") and "to close" in line]
    assert "Root shut the whole box." in text
    root = "\n".join(await send_all(playground, "stats"))
    ann = "\n".join(await send_all(playground, "as Ann", "stats"))
    assert "Matches: 1 played, 1 won · Rounds: 0 played, 0 won · Boxes shut: 1" in root
    assert "Matches: 1 played, 0 won · Rounds: 0 played, 0 won · Boxes shut: 0" in ann


async def test_the_opener_is_asked_in_norwegian(redis: Redis) -> None:
    playground = make(redis, SeededDice(2), name="Root")
    out = await send_all(playground, "config lang=nb", "start long", "as Ann", "join", "as Root",
                         "go")  # fmt: skip
    out += await play_out(playground)
    assert "Ann kastet ⚄ ⚀ = 6: velg hvilke nedlagte brikker du vil åpne." in "\n".join(out)
