"""A Slack channel plays a staked match to the end through signed requests (SPEC 3, 4, 5)."""

from __future__ import annotations

import re

from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message

PLAYERS = {"UANN": "Ann", "UBOB": "Bob", "UCID": "Cid"}
MAX_CLICKS = 400
SKIPPED = ("Hint",)


async def open_lobby(slack: Driver, fake: FakeSlack, text: str) -> Message:
    """Ann types `/shutbox <text>`; the lobby message appears in the channel."""
    sent = await slack.command("UANN", text)
    assert sent.status == 200
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    return found[0]


def to_act(message: Message) -> str:
    """The user whose name the message shows in bold (the player to act)."""
    acting = [user for user, name in PLAYERS.items() if f"*{name}*" in message.body]
    assert len(acting) == 1, message.body
    return acting[0]


def first_move(message: Message) -> str:
    """The first button that plays (Roll, or the first way to close the roll)."""
    playable = [b for b in message.buttons if b["text"]["text"] not in SKIPPED]
    assert playable, message.body
    return str(playable[0]["action_id"])


async def play_to_the_end(slack: Driver, message: Message) -> None:
    for _ in range(MAX_CLICKS):
        if not message.playing:
            return
        await slack.press(to_act(message), message, first_move(message))
    raise AssertionError("the match did not end:\n" + message.body)


def chip_moves(texts: list[str]) -> dict[str, int]:
    """Net chips per player from the `💰 A → B: n` lines of the public summaries."""
    net = dict.fromkeys(PLAYERS.values(), 0)
    for source, target, amount in re.findall(r"💰 (\w+) → (\w+): (\d+)", "\n".join(texts)):
        net[source] -= int(amount)
        net[target] += int(amount)
    return net


async def test_three_players_play_a_canoga_match_to_the_end(slack: Driver, fake: FakeSlack) -> None:
    """Ann opens a Canoga lobby, Bob and Cid join by button, all three play two rounds by
    buttons on one message edited in place; the summaries, balances and leaderboard agree."""
    lobby = await open_lobby(slack, fake, "start stakes=canoga rounds=2")
    assert "Host: Ann" in lobby.body and "Canoga" in lobby.body
    for user in ("UBOB", "UCID"):
        await slack.press(user, lobby, lobby.button("Join"))
    assert "Ann, Bob, Cid" in lobby.body
    await slack.press("UANN", lobby, lobby.button("Start"))
    assert "<!date^" in lobby.body

    await play_to_the_end(slack, lobby)
    summaries = await fake.wait_for(
        lambda: [m.text for m in fake.public if "Match over" in m.text] and fake.public
    )
    texts = [m.text for m in summaries]
    assert "🏆" in lobby.body and len(fake.game_messages(CHANNEL)) == 1
    assert any("*Round 1*" in text for text in texts) and any("*Round 2*" in text for text in texts)
    await fake.wait_for(lambda: [m for m in fake.public if m.text.startswith("📈 Ratings: ")])
    await slack.command("UBOB", "leaderboard rating")
    rated = await fake.wait_for(lambda: [m.text for m in fake.public if "Highest rating" in m.text])
    assert len(rated[-1].splitlines()) == 4  # the title and the three players

    net = chip_moves(texts)
    assert any(net.values()) and sum(net.values()) == 0
    for user, name in PLAYERS.items():
        balance = await slack.say(user, "balance")
        assert balance == f"You have {100 + net[name]} chips."

    winner = max(net, key=lambda name: net[name])
    await slack.command("UBOB", "leaderboard")
    await slack.command("UBOB", "leaderboard chips")
    boards = await fake.wait_for(
        lambda: (
            len([m for m in fake.public if "Most" in m.text]) >= 2
            and [m.text for m in fake.public if "Most" in m.text]
        )
    )
    wins = next(text for text in boards if "Most matches won" in text)
    chips = next(text for text in boards if "Most chips" in text)
    assert f"1. {winner} — 1" in wins
    assert f"1. {winner} — {100 + net[winner]}" in chips
