"""The playground reads moves as tiles, names the player at the keyboard, speaks the table's
language and keeps its log out of the game screen."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from redis.asyncio import Redis

from adapters.console import Playground
from bot.playground import log_to_file
from core.game.dice import FixedDice, SeededDice
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.test_console import make, send_all


async def test_a_move_is_typed_as_its_tiles_in_any_order(redis: Redis) -> None:
    """`1+8` closes 8+1: the tiles count, not the order they are typed in."""
    playground = make(redis, FixedDice([(4, 5)]))
    out = await send_all(playground, "solo", "a", "1+8")
    assert "Cy closed 8+1" in "\n".join(out)


async def test_a_number_means_tiles_never_a_button(redis: Redis) -> None:
    """On a roll of 9, typing `9` closes tile 9 (it once pressed the ninth button, Hint)."""
    playground = make(redis, FixedDice([(4, 5)]))
    out = await send_all(playground, "solo", "roll", "9")
    assert "Cy closed 9" in "\n".join(out)


async def test_a_move_the_roll_does_not_allow_lists_the_moves(redis: Redis) -> None:
    """`5+3` on a roll of 9 is refused with the moves that fit."""
    playground = make(redis, FixedDice([(4, 5)]))
    out = await send_all(playground, "solo", "roll", "5+3")
    assert out[-1].startswith("(to Cy only) “5+3” is not a move for this roll. Moves: 9, 8+1,")


async def test_buttons_are_lettered(redis: Redis) -> None:
    """The game message's buttons read `[a] Roll  [b] Hint`."""
    playground = make(redis, SeededDice(1))
    out = await playground.send("solo")
    assert out[-1].strip() == "[a] Roll  [b] Hint"


async def test_the_prompt_shows_whose_turn_a_press_plays(redis: Redis) -> None:
    """Bob at the keyboard on Ann's turn: the prompt says the buttons play for Ann."""
    playground = make(redis, SeededDice(2), name="Ann")
    await send_all(playground, "start", "as Bob", "join", "go")
    assert playground.prompt == "Bob (buttons play for Ann)> "


def test_the_default_name_is_the_login_name(redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no --name the player sits as their login name, capitalised, never as "You"."""
    monkeypatch.setattr("getpass.getuser", lambda: "ann")
    playground = Playground(GameManager(RedisStore(redis)))
    assert playground.prompt == "Ann> "


async def test_deadlines_read_in_the_table_s_language(redis: Redis) -> None:
    """On a Danish table the deadline says `om 30 sekunder`."""
    now = [1_700_000_000.0]
    playground = make(redis, SeededDice(3), now=now)
    out = await send_all(playground, "config lang=da", "solo timer=30")
    assert any("(om 30 sekunder)" in line for line in out)


def test_the_playground_log_goes_to_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log line lands in `playground.log`, not on the game screen."""
    with log_to_file(tmp_path) as path:
        logging.getLogger("shutbox.action").warning("balance error (error.redis) in 0.84 ms")
    assert "balance error (error.redis)" in path.read_text(encoding="utf-8")
    assert "balance error" not in capsys.readouterr().err


async def test_typed_subcommands_read_as_in_slack(redis: Redis) -> None:
    """Subcommands share Slack's grammar: `preset=` names a board's preset, and a word too many
    is shown with the playground's own usage line."""
    playground = make(redis, SeededDice(1))
    board = "\n".join(await playground.send("leaderboard best preset=sailors"))
    assert "Best single score · Sailors’ rules (sailors)" in board
    usage = "\n".join(await playground.send("leaderboard wins sailors"))
    assert "Usage: leaderboard [board] [preset=P] [season=N] [page=N]." in usage
    extra = "\n".join(await playground.send("join now"))
    assert "join takes no options, so nothing was done with “now”." in extra


async def test_the_playground_keeps_its_text_board_and_says_why(redis: Redis) -> None:
    """`config style=image` in the terminal is saved for the chats; the terminal says it shows
    emoji or text, and its game stays a row of keycaps."""
    playground = make(redis, SeededDice(3))
    out = await send_all(playground, "config style=image", "solo")
    shown = "\n".join(out)
    assert (
        "This terminal game shows the board as emoji or text; the picture of the box is for "
        "Discord and Slack." in shown
    )
    assert "1️⃣" in shown and "SHUTBOX_PUBLIC_URL" not in shown
