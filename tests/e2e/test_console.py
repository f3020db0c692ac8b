"""The local playground, driven line by line exactly as a user types (SPEC 3, 6, 8)."""

from __future__ import annotations

import asyncio
import io
import os
import re
from pathlib import Path

import pytest
from redis.asyncio import Redis

from adapters.console import CHANNEL, PICTURE_NOTE, SCOPE, Playground
from adapters.console.texts import NEWCOMER_COMMANDS
from bot.playground import open_playground
from core.game.dice import DiceSource, FixedDice, SeededDice
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from core.text.i18n import t

MAX_PRESSES = 2000


def make(
    redis: Redis, dice: DiceSource, name: str = "Cy", now: list[float] | None = None
) -> Playground:
    """A playground on the test database; `now` (a one-item list) is a clock the test moves."""
    store = RedisStore(redis)
    manager = GameManager(store, dice=dice)
    if now is not None:
        manager = GameManager(store, dice=dice, clock=lambda: now[0])
    manager.picture_notes[SCOPE.platform] = PICTURE_NOTE  # as bot/playground.py does
    return Playground(manager, name, clock=manager.clock, sweep=manager.sweep)


async def play_out(playground: Playground) -> list[str]:
    """Press the first button (`a`) until the game message says the game is over."""
    out: list[str] = []
    for _ in range(MAX_PRESSES):
        if playground.view is not None and playground.view.over:
            return out
        out += await playground.send("a")
    raise AssertionError("the game did not end:\n" + "\n".join(out[-30:]))


async def version(playground: Playground) -> int | None:
    record = await playground.manager.current(Context(SCOPE, CHANNEL, "watcher", "Watcher"))
    return None if record is None else record.version


async def send_all(playground: Playground, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += await playground.send(line)
    return out


async def chips(playground: Playground, name: str) -> int:
    out = await send_all(playground, f"as {name}", "balance")
    found = re.search(r"You have (\d+) chips", "\n".join(out))
    assert found, out
    return int(found.group(1))


async def test_newcomer_plays_a_bot_with_the_welcome_commands(redis: Redis) -> None:
    """A newcomer types what the welcome says, presses `a` until the end, and sees a winner."""
    playground = make(redis, SeededDice(1))
    welcome = "\n".join(playground.welcome())
    out: list[str] = []
    for command in NEWCOMER_COMMANDS:
        assert f'"{command}"' in welcome
        out += await playground.send(command)
    out += await play_out(playground)
    text = "\n".join(out)
    assert "🏆" in text and "Match over" in text
    assert not [line for line in out if line.startswith("(to ")]


async def test_hot_seat_pot_match_conserves_chips(redis: Redis) -> None:
    """Two humans at one keyboard play a pot:5, 2-round match; no chip is made or lost."""
    playground = make(redis, SeededDice(5), name="Ann")
    out = await send_all(playground, "start stakes=pot:5 rounds=2", "as Bob", "join", "go")
    out += await play_out(playground)
    text = "\n".join(out)
    assert "Ann rolled" in text and "Bob rolled" in text
    assert "Round 2" in text and "Match over" in text
    balances = [await chips(playground, "Ann"), await chips(playground, "Bob")]
    assert sum(balances) == 200 and balances != [100, 100]
    board = "\n".join(await playground.send("leaderboard chips"))
    assert "Most chips" in board and "Ann" in board and "Bob" in board


async def test_wrong_player_is_told_whose_turn_it_is(redis: Redis) -> None:
    """Bob pressing Roll on Ann's turn is told "It is Ann's turn" privately; nothing changes."""
    playground = make(redis, SeededDice(2), name="Ann")
    await send_all(playground, "start", "as Bob", "join", "go")
    before, view = await version(playground), playground.view
    out = await send_all(playground, "as Bob", "a")
    assert out[-1].startswith("(to Bob only) It is Ann’s turn")
    assert await version(playground) == before and playground.view is view
    assert any("Ann rolled" in line for line in await playground.send("a"))


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("start preset=nope", "Unknown preset “nope”"),
        ("start stakes=pot:-5", "A stake must be 1 to 1,000,000 chips, not -5."),
        ("start rounds=abc", "whole number from 1 to 50, not “abc”"),
        ("start timer=²", "timer must be a whole number from 10 to 3,600, not “²”"),
        ("grant Bob 10000000", "amount must be a whole number from -1,000,000 to 1,000,000"),
        ("start colour=red", "Unknown option “colour”"),
    ],
)
async def test_bad_options_get_a_private_error(redis: Redis, line: str, says: str) -> None:
    """Bad start options get a private reply that says what is wrong, and open no game."""
    playground = make(redis, SeededDice(1))
    out = await playground.send(line)
    assert len(out) == 1 and out[0].startswith("(to Cy only)") and says in out[0]
    assert await version(playground) is None


@pytest.mark.parametrize(
    "options",
    [
        "preset=classic", "preset=hard", "preset=sailors", "preset=kids", "preset=missionary",
        "preset=ten", "preset=twelve", "rounds=2", "format=to-45", "format=elimination",
        "format=first-shut", "format=long", "sailors last-die=yes", "tiles=12 dice=3",
        "stakes=pot:5 rounds=2", "stakes=canoga:2", "format=long stakes=pot:3",
    ],
)  # fmt: skip
async def test_every_preset_format_and_stake_plays_to_the_end(redis: Redis, options: str) -> None:
    """Each preset, format and stake plays against a bot to the end by pressing button `a`."""
    playground = make(redis, SeededDice(options))
    out = await send_all(playground, f"start {options}", "bot", "go")
    out += await play_out(playground)
    assert "Shut the Box — game over" in "\n".join(out)
    assert not [line for line in out if line.startswith("(to ")]


async def test_solo_buttons_by_label_and_hint(redis: Redis) -> None:
    """A solo game starts at once; buttons can be typed by label, and Hint answers privately."""
    playground = make(redis, FixedDice([(4, 5)]))
    out = await send_all(playground, "solo", "roll", "hint")
    assert out[-1].startswith("(to Cy only) Best:")
    out = await playground.send("8+1")
    assert "Cy closed 8+1" in "\n".join(out)


async def test_deadline_passes_and_the_tick_plays_for_the_absent(redis: Redis) -> None:
    """When a turn's deadline passes, the next tick makes the move and marks it auto."""
    now = [1_700_000_000.0]
    playground = make(redis, SeededDice(3), now=now)
    out = await playground.send("solo timer=30")
    assert any("(in 30 seconds)" in line for line in out)
    assert await playground.tick() == []
    now[0] += 31
    assert "(auto)" in "\n".join(await playground.tick())


async def test_interactive_loop_reads_until_quit(redis_url: str, tmp_path: Path) -> None:
    """`run` prints the welcome, answers each line, and stops at `quit`."""
    stdin, stdout = io.StringIO("balance\nquit\nbalance\n"), io.StringIO()
    async with open_playground(redis_url, str(tmp_path), "Ann") as playground:
        await playground.run(stdin, stdout)
    shown = stdout.getvalue()
    assert "You are at the keyboard as Ann" in shown and "(to Ann only) You have" in shown
    assert shown.rstrip().endswith("Bye!") and shown.count("You have") == 1


async def test_a_table_set_to_danish_is_welcomed_in_danish(redis: Redis) -> None:
    """A later session at a table whose language is Danish: the welcome, the line about the
    running game and its deadline are Danish from the first line, not English until a command."""
    await make(redis, SeededDice(4)).send("config lang=da")
    await make(redis, SeededDice(4)).send("start")
    stdout = io.StringIO()
    await make(redis, SeededDice(4), name="Ann").run(io.StringIO("quit\n"), stdout)
    shown = stdout.getvalue()
    assert shown.startswith(t("da", "playground.welcome", name="Ann").replace("**", ""))
    assert t("da", "playground.running") in shown and "(om 10 minutter)" in shown
    assert "You are" not in shown and "minutes" not in shown


async def test_the_loop_ends_at_its_prompt_once_stopped(redis: Redis) -> None:
    """Ctrl-C sets `stop` as well as cancelling: a cancel lost inside redis-py (Python 3.11's
    `wait_for`) must not leave the loop waiting for a line that never comes."""
    read_end, write_end = os.pipe()  # input that stays open and silent
    stop, stdout = asyncio.Event(), io.StringIO()
    stop.set()
    with os.fdopen(read_end) as stdin, os.fdopen(write_end, "w"):
        await asyncio.wait_for(make(redis, SeededDice(1)).run(stdin, stdout, stop), 60)
    assert "You are at the keyboard as Cy" in stdout.getvalue()


async def test_open_playground_starts_an_embedded_redis(tmp_path: Path) -> None:
    """Without a Redis URL the playground runs on an embedded server in the data directory."""
    async with open_playground(None, str(tmp_path), "Ann") as playground:
        out = await playground.send("balance")
    assert out == ["(to Ann only) You have 100 chips."]


async def test_a_game_left_running_is_shown_and_continues(redis: Redis) -> None:
    """A new session finds the table's running game: `show` prints it and its buttons work."""
    await make(redis, SeededDice(4)).send("solo")
    later = make(redis, SeededDice(4))
    shown = await later.send("show")
    assert shown[0] == "=== Round 1 of 1 ===" and "[a] Roll" in shown[-1]
    assert any("Cy rolled" in line for line in await later.send("a"))


async def test_review_give_and_rank_in_the_playground(redis: Redis) -> None:
    """After a solo game `review` grades it; `give Bob 20` pays Bob; `rank` places both."""
    playground = make(redis, SeededDice(3))
    await playground.send("solo")
    await play_out(playground)
    review = "\n".join(await playground.send("review"))
    assert "Your play against perfect play" in review and "decisions best" in review
    gave = "\n".join(await playground.send("give Bob 20"))
    assert "You gave Bob 20 chips. Your balance: 80." in gave
    assert "You can’t give chips to yourself." in "\n".join(await playground.send("give Cy 5"))
    rank = "\n".join(await playground.send("rank"))
    assert "#2 of 2 by chips" in rank


async def test_a_long_leaderboard_turns_its_pages_by_command(redis: Redis) -> None:
    """Twelve players on the wins board: page 1 shows ten and says how to see the rest; page 2
    shows the last two and how to go back."""
    playground = make(redis, SeededDice(3))
    tag = SCOPE.tag
    await redis.zadd(f"{tag}:lb:wins", {f"p{n:02d}": 100 - n for n in range(12)})
    first = "\n".join(await playground.send("leaderboard wins"))
    assert "10. p09" in first and "p10" not in first
    assert 'Next: type "leaderboard wins page=2"' in first and "Previous" not in first
    second = "\n".join(await playground.send("leaderboard wins page=2"))
    assert "11. p10" in second and "12. p11" in second
    assert 'Previous: type "leaderboard wins page=1"' in second and "Next" not in second


@pytest.mark.parametrize(
    ("line", "shown"),
    [("give 🤖 Bot 1 5", "🤖 Bot 1"), ("give Bot 1 5", "Bot 1"), ("give bot 2 5", "bot 2"),
     ("grant Bot 1 50", "Bot 1")],
)  # fmt: skip
async def test_chips_never_go_to_a_bot_seat_in_the_playground(
    redis: Redis, line: str, shown: str
) -> None:
    """A bot's seat name, as the board shows it or typed plainly, is refused; nothing moves."""
    playground = make(redis, SeededDice(3))
    await playground.send("start")
    await playground.send("bot")
    said = await playground.send(line)
    assert f"{shown} is a bot, and bots don’t keep chips." in "\n".join(said)
    assert await RedisStore(redis).balances(SCOPE, ["bot-1", "🤖-bot-1", "bot-2", "cy"]) == {}


async def test_the_playground_says_it_serves_no_page_whatever_the_settings(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SHUTBOX_PUBLIC_URL set or not, the playground has no web server: `web on` says that."""
    monkeypatch.setenv("SHUTBOX_PUBLIC_URL", "https://shutbox.example/")
    async with open_playground(redis_url, str(tmp_path), "Ann") as playground:
        out = await playground.send("web on")
    assert out == [f"(to Ann only) {t('en', 'web.playground')}"]
