"""What the playground says is true and in the table's language: the prompt, the welcome,
typed moves that fit nothing, and every word of its own (SPEC 8)."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from core.game.dice import FixedDice, SeededDice
from core.text.i18n import t
from tests.e2e.test_console import make, send_all


async def test_tiles_typed_before_the_roll_say_roll_first(redis: Redis) -> None:
    playground = make(redis, FixedDice([(4, 5)]))
    out = await send_all(playground, "solo", "7")
    assert out[-1].startswith("(to Cy only) “7”: roll first; there are no dice")


async def test_a_shut_tile_a_missing_tile_and_a_tile_twice_say_so(redis: Redis) -> None:
    """One form for every typed move that fits nothing: why, then the moves that fit."""
    playground = make(redis, FixedDice([(4, 5), (4, 5)]))
    await send_all(playground, "solo", "roll", "9", "roll")
    assert (await playground.send("9"))[-1].startswith(
        "(to Cy only) “9”: 9 is already shut. Moves for this roll: 8+1,"
    )
    assert (
        "“4+4+1”: each tile closes only once. Moves for this roll:"
        in (await playground.send("4+4+1"))[-1]
    )
    assert "“13”: there is no tile 13." in (await playground.send("13"))[-1]
    assert "“5+3” is not a move for this roll. Moves: 8+1," in (await playground.send("5+3"))[-1]


async def test_a_long_line_is_not_echoed_back_whole(redis: Redis) -> None:
    playground = make(redis, FixedDice([]))
    await playground.send("solo")
    out = "\n".join(await playground.send("x" * 3000))
    assert "x" * 21 not in out and "x" * 20 + "…" in out


async def test_the_prompt_shows_who_presses_the_lobby_buttons(redis: Redis) -> None:
    """`as Ann` + `join`: `go` is the host's, and the prompt says so."""
    playground = make(redis, SeededDice(1))
    await send_all(playground, "start", "as Ann", "join")
    assert playground.prompt == "Ann (go/cancel act for the host, Cy)> "
    await playground.send("go")
    assert playground.prompt == "Ann (buttons play for Cy)> "


async def test_the_prompt_follows_a_timeout_and_the_end(redis: Redis) -> None:
    """A turn played by the clock moves the prompt on; a finished game has nobody to play."""
    now = [1_700_000_000.0]
    playground = make(redis, SeededDice(3), now=now)
    await send_all(playground, "start timer=30", "as Ann", "join", "as Cy", "go")
    assert playground.prompt == "Cy> "
    for _ in range(40):
        now[0] += 31
        await playground.tick()
        if playground.view is not None and playground.view.over:
            break
        acting = playground.acting
        assert acting is not None
        shown = "Cy> " if acting == "Cy" else f"Cy (buttons play for {acting})> "
        assert playground.prompt == shown
    assert playground.view is not None and playground.view.over
    assert playground.prompt == "Cy> "


def test_the_welcome_says_what_as_does(redis: Redis) -> None:
    welcome = "\n".join(make(redis, FixedDice([])).welcome())
    assert '"as Ann" seats Ann' not in welcome and '"join" then seats her' in welcome


@pytest.mark.parametrize("lang", ["da", "nb"])
async def test_no_english_is_left_in_danish_and_norwegian(redis: Redis, lang: str) -> None:
    """The private prefix, the errors, the prompt and the help's own section are translated;
    `hint` (as the help spells it) still presses the translated Hint."""
    playground = make(redis, FixedDice([(4, 5)]))
    saved = await playground.send(f"config lang={lang}")
    assert saved[0].startswith(t(lang, "playground.private", name="Cy", text=""))
    await send_all(playground, "start", "as Ann", "join")
    assert (
        playground.prompt
        == "Ann " + t(lang, "playground.prompt_host", seated="", host="Cy")[1:] + "> "
    )
    out = await send_all(playground, "go", "frobnicate", "7")
    out += await playground.send("hint")
    out += await playground.send("help")
    text = "\n".join(out)
    for english in ("(to ", "No command or button", "play for", "In the playground", "Best:"):
        assert english not in text and english not in playground.prompt
    assert t(lang, "playground.private", name="Ann", text="")[:-1] in text
    hint = t(lang, "hint.sum", advice="", expected="", chance="").split(":")[0]
    assert hint in text
    assert "/shutbox " not in text  # typed here without it


async def test_the_host_removes_and_hands_on_by_button_and_stop_names_who(redis: Redis) -> None:
    """In the lobby the host's buttons remove a bot and make Ann host; Ann's stop says so."""
    playground = make(redis, SeededDice(2))
    out = await send_all(playground, "start", "bot", "as Ann", "join")
    assert "  [f] Remove 🤖 Bot 1  [g] Remove Ann  [h] Make Ann host" in out
    out = await playground.send("f")  # pressed by the host, Cy
    assert "Players (2/6): Cy, Ann" in out
    out = await playground.send("g")  # the new row: [f] Remove Ann  [g] Make Ann host
    assert "Host: Ann" in out and "Players (2/6): Ann, Cy" in out
    out = await send_all(playground, "go", "as Ann", "stop")
    assert "⏹ Ann stopped the game." in out
