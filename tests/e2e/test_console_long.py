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
