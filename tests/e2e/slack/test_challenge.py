"""The daily challenge in Slack: a private screen sent through the response_url and replaced on
each click (`replace_original`), one spoiler-free line in the channel, the share only for the
player (SPEC 9)."""

from __future__ import annotations

from typing import Any

from core.service.features.challenge.board import challenge_day
from core.service.features.challenge.day import day_of
from core.service.model.commit import Scope
from core.service.pipeline.manager import GameManager
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message, Response

SCOPE = Scope("slack", TEAM)
MAX_CLICKS = 60


def screen_of(response: Response) -> Message:
    """The ephemeral message a response_url post shows the user."""
    body = response.body
    return Message(CHANNEL, f"eph-{response.key}", str(body["text"]), list(body["blocks"]))


def playing(screen: Message) -> list[dict[str, Any]]:
    return screen.playing


async def play_challenge(slack: Driver, fake: FakeSlack, user: str) -> list[Response]:
    """`user` runs `/shutbox challenge` and presses the first button until the turn is over;
    returns every response_url post of the last click (the final screen, then the share)."""
    sent = await slack.command(user, "challenge")
    first = await fake.reply(sent.key)
    assert first.body["response_type"] == "ephemeral" and first.body["replace_original"] is False
    screen, key = screen_of(first), sent.key
    for _ in range(MAX_CLICKS):
        if not playing(screen):
            return await ended(fake, key)
        click = await slack.click(user, screen, playing(screen)[0]["action_id"], ephemeral=True)
        replaced = await fake.reply(click.key)
        assert replaced.body["replace_original"] is True and replaced.body["blocks"]
        screen, key = screen_of(replaced), click.key
    raise AssertionError("the challenge did not end")


async def ended(fake: FakeSlack, key: str) -> list[Response]:
    """The last request's response_url posts: the final screen, then the share."""
    found: list[Response] = await fake.wait_for(
        lambda: len(fake.replies(key)) >= 2 and fake.replies(key)
    )
    return found


async def test_two_members_play_the_day_privately_and_the_channel_gets_one_line_each(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    """No game message is posted in the channel: each screen goes through the response_url
    and each click replaces it; the channel gets `<name> finished challenge #1: …` only."""
    finals = {user: await play_challenge(slack, fake, user) for user in ("UANN", "UBOB")}
    await fake.wait_for(lambda: len(fake.called("chat.postMessage")) >= 2)
    public = [call.params["text"] for call in fake.called("chat.postMessage")]
    assert len(public) == 2, public
    assert public[0].startswith("Ann finished challenge #1: ") and " left · " in public[0]
    assert public[1].startswith("Bob finished challenge #1: ")
    assert fake.called("chat.update") == []
    day = await challenge_day(manager.store, SCOPE, day_of(manager.clock()))
    for responses in finals.values():
        final, share = responses[0], responses[-1]
        assert "Daily challenge #1" in final.text and day.commitment in str(final.body["blocks"])
        assert share.body["response_type"] == "ephemeral"
        assert "Shut the Box #1 · " in share.text and "In words: " in share.text
        assert day.seed not in str(final.body) + share.text
    assert all(day.seed not in text for text in public)


async def test_a_second_challenge_is_refused_and_the_board_waits_for_playing(
    slack: Driver, fake: FakeSlack
) -> None:
    await play_challenge(slack, fake, "UANN")
    locked = await slack.say("UBOB", "leaderboard challenge")
    assert locked.startswith("Today’s challenge board opens once you have played")
    again = await slack.say("UANN", "challenge")
    assert again.startswith("You have played today’s challenge #1: ")
    assert "Next challenge at 12:00\u202fAM UTC" in again
    await play_challenge(slack, fake, "UBOB")
    board = await slack.say("UBOB", "leaderboard challenge")
    assert "today’s board" in board and "Ann —" in board and "Bob —" in board
