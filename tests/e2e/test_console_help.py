"""What a newcomer is told when asking the playground: `help` once, `rules` for every word the
help offers, `hint` where hints are off, and a prompt that says who a button plays for."""

from __future__ import annotations

import re

import pytest
from redis.asyncio import Redis

from core.game.dice import FixedDice, SeededDice
from core.service.pipeline.subcommands import NAMES, command_lines
from core.text.i18n import t
from tests.e2e.test_console import make, send_all


@pytest.mark.parametrize("lang", ["en", "da", "nb"])
async def test_help_lists_each_command_once(redis: Redis, lang: str) -> None:
    """The chat's overview, naming each command once, then only what the playground adds to
    it; `help <command>` gives that command's line, without the playground's part."""
    playground = make(redis, FixedDice([]))
    await playground.send(f"config lang={lang}")
    text = "\n".join(await playground.send("help"))
    for name in NAMES:
        assert text.count(name) >= 1, name
    assert t(lang, "playground.help", keys="").split("\n")[1].replace("`", "") in text
    for name, line in zip(NAMES, command_lines(lang), strict=True):
        detail = "\n".join(await playground.send(f"help {name}"))
        assert line.replace("`", "") in detail
        assert t(lang, "playground.help", keys="").split("\n")[1].replace("`", "") not in detail


@pytest.mark.parametrize("lang", ["en", "da", "nb"])
async def test_help_has_one_kind_of_apostrophe_and_no_english_placeholder(
    redis: Redis, lang: str
) -> None:
    """Typographic apostrophes throughout (`player’s`), and `[player]` in the table's words."""
    playground = make(redis, FixedDice([]))
    await playground.send(f"config lang={lang}")
    text = "\n".join(await playground.send("help"))
    for name in NAMES:
        text += "\n".join(await playground.send(f"help {name}"))
    assert re.search(r"\w'\w", text) is None
    if lang != "en":
        assert "[player]" not in text and "[spiller]" in text


@pytest.mark.parametrize(
    ("topic", "heading"),
    [("stakes", "Pot (pot:A)"), ("format", "Up to 45 (to-45)"), ("preset", "Sailors’ rules")],
)
async def test_rules_answers_each_word_the_help_offers(
    redis: Redis, topic: str, heading: str
) -> None:
    """`rules [preset|format|stakes]`: each placeholder, typed as it reads, explains them all."""
    playground = make(redis, FixedDice([]))
    help_line = next(line for line in command_lines("en") if line.startswith("rules "))
    assert topic in help_line
    text = "\n".join(await playground.send(f"rules {topic}"))
    assert "There are no rules called" not in text
    assert heading in text


async def test_hint_in_the_daily_challenge_says_hints_are_off_there(redis: Redis) -> None:
    playground = make(redis, FixedDice([]))
    await playground.send("challenge")
    (line,) = await playground.send("hint")
    assert line == ("(to Cy only) “hint”: hints are off in the daily challenge, so everyone "
                    "plays today’s dice on their own. Buttons: [a] Roll")  # fmt: skip


@pytest.mark.parametrize(("lang", "header"), [("da", "--- privat skærm for Cy ---"),
                                             ("nb", "--- privat skjerm for Cy ---")])  # fmt: skip
async def test_the_challenges_private_screen_is_headed_in_the_tables_language(
    redis: Redis, lang: str, header: str
) -> None:
    playground = make(redis, FixedDice([]))
    out = await send_all(playground, f"config lang={lang}", "challenge")
    assert header in out and not any("private screen" in line for line in out)


async def test_hint_in_a_game_without_hints_says_how_it_was_started(redis: Redis) -> None:
    playground = make(redis, FixedDice([(3, 4)]))
    await send_all(playground, "config lang=da", "start hints=off", "go", "a")
    (line,) = await playground.send("tip")
    assert line.startswith("(kun til Cy) »tip«: tip er slået fra i dette spil (det blev startet")


async def test_the_prompt_says_whose_turn_the_buttons_play(redis: Redis) -> None:
    """Ann at the keyboard while it is Root's turn: `a` rolls for Root, and the prompt says so."""
    playground = make(redis, SeededDice(4), name="Root")
    await send_all(playground, "start", "as Ann", "join", "go")
    assert playground.prompt == "Ann (buttons play for Root)> "
    before = "\n".join(await playground.send("a"))
    assert "Root rolled" in before
