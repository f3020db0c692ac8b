"""Wrong clicks and bad input get a private (ephemeral) reply and change nothing (SPEC 3, 6)."""

from __future__ import annotations

import copy

import pytest

from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message


async def solo_game(slack: Driver, fake: FakeSlack, user: str = "UANN") -> Message:
    await slack.command(user, "solo")
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    return found[0]


async def private_reply(slack: Driver, fake: FakeSlack, user: str, message: Message,
                        action_id: str) -> str:  # fmt: skip
    sent = await slack.click(user, message, action_id)
    assert sent.status == 200
    response = await fake.reply(sent.key)
    assert response.body["response_type"] == "ephemeral"
    assert response.body["replace_original"] is False
    return response.text


async def test_a_click_by_someone_else_names_the_player_to_act(
    slack: Driver, fake: FakeSlack
) -> None:
    """Bob presses Roll in Ann's solo game: only Bob hears "It is Ann's turn"."""
    game = await solo_game(slack, fake)
    text = await private_reply(slack, fake, "UBOB", game, game.button("Roll"))
    assert text == "It is Ann’s turn. Please wait for yours."
    assert game.updates == 0


async def test_a_click_on_an_outdated_message_changes_nothing(
    slack: Driver, fake: FakeSlack
) -> None:
    """Roll pressed again on the message as it was before the first roll is refused."""
    game = await solo_game(slack, fake)
    before = copy.deepcopy(game)
    await slack.press("UANN", game, game.button("Roll"))
    shown = game.blocks
    text = await private_reply(slack, fake, "UANN", before, before.button("Roll"))
    assert text == (
        "That button belongs to an earlier moment of the game; "
        "the game message now shows where it stands."
    )
    assert game.blocks == shown and game.updates == 2  # refreshed in place, as it stands


async def test_a_button_of_an_ended_game_says_the_game_is_over(
    slack: Driver, fake: FakeSlack
) -> None:
    """After /shutbox stop, the old message's Roll button says the game is over."""
    game = await solo_game(slack, fake)
    before = copy.deepcopy(game)
    await slack.command("UANN", "stop")
    await fake.wait_for(lambda: game.updates == 1)
    assert "stopped" in game.body and not game.buttons
    assert await private_reply(slack, fake, "UANN", before, before.button("Roll")) == (
        "That game is over."
    )


GRANT_RANGE = "a whole number from -1,000,000 to 1,000,000"


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("frobnicate", "There is no /shutbox command “frobnicate”."),
        ("start colour=red", "Unknown option “colour”."),
        (
            "start timer=soon",
            "The option timer must be a whole number from 10 to 3,600, not “soon”.",
        ),
        ("start rounds=0", "The number of rounds must be 1 to 50, not 0."),
        ("start preset=chess", "Unknown preset “chess”."),
        ("start stakes=pot:0", "A stake must be 1 to 1,000,000 chips, not 0."),
        ("start preset=sailors sailors", "The option preset is given twice (sailors and sailors)."),
        ("start stakes=pot:500", "You have 100 chips; this game needs 500 chips to play."),
        ("start classic sailors", "The option preset is given twice (classic and sailors)"),
        ("start rounds=2 rounds=3", "The option rounds is given twice."),
        ("join now", "`/shutbox join` takes no options"),
        ("join", "There is no game in this channel."),
        ("grant bob 5", "“bob” is not a Slack user."),
        ("grant <@UBOB|bob> lots", f"amount must be {GRANT_RANGE}, not “lots”."),
        ("grant <@UBOB|bob> 99999999999999999999999", f"amount must be {GRANT_RANGE}"),
        ("start timer=²", "timer must be a whole number from 10 to 3,600, not “²”."),
        ("start tiles=²", "tiles must be a whole number from 9 to 12, not “²”."),
        ("grant <@UBOB>", "Usage: `/shutbox grant @user N`"),
        ("stats @bob", "“@bob” is not a Slack user."),
        ("leaderboard fastest", "There is no leaderboard called “fastest”."),
        ("config colour=blue", "There is no setting called “colour”."),
        ("config lang=fr", "“fr” is not a valid value for lang."),
        ("config lang", "Options are written key=value"),
        ("odds chess", "Unknown preset “chess”."),
    ],
)
async def test_bad_input_gets_a_private_reply_that_says_what_is_wrong(
    slack: Driver, fake: FakeSlack, text: str, reply: str
) -> None:
    """Each mistake is answered privately, naming the problem; nothing is posted."""
    assert reply in await slack.say("UANN", text)
    assert not fake.called("chat.postMessage")


async def test_a_second_start_points_to_the_running_game(slack: Driver, fake: FakeSlack) -> None:
    """One game per channel: Bob's start names Ann's running game."""
    await solo_game(slack, fake)
    text = await slack.say("UBOB", "start")
    assert text.startswith("A game is already being played in this channel (host: Ann);")
    assert len(fake.game_messages(CHANNEL)) == 1
