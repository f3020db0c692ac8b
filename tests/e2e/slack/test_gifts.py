"""`/shutbox give @user N` in a Slack workspace: chips move once, or one private line says why."""

from __future__ import annotations

import pytest

from tests.e2e.slack.conftest import slack_user
from tests.e2e.slack.driver import Driver
from tests.e2e.slack.fake_slack import FakeSlack


async def test_bob_gives_cid_chips_and_the_channel_sees_it(slack: Driver, fake: FakeSlack) -> None:
    """Bob's receipt is private, the channel sees the gift, Cid's balance shows it."""
    assert await slack.say("UBOB", "give <@UCID|cid> 25") == (
        "You gave Cid 25 chips. Your balance: 75."
    )
    await fake.wait_for(lambda: [m for m in fake.public if m.text == "🎁 Bob gave Cid 25 chips."])
    assert await slack.say("UCID", "balance") == "You have 125 chips."


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("give <@UCID> 0", "You can only give more than 0 chips, not 0."),
        ("give <@UCID> -4", "You can only give more than 0 chips, not -4."),
        ("give <@UCID> 500", "You have only 100 chips, so you can’t give 500."),
        ("give <@UBOB> 5", "You can’t give chips to yourself."),
        ("give <@UROBO> 5", "Robo is a bot, and bots don’t keep chips."),
        ("give <@UCID> lots", "The number of chips must be a whole number, not “lots”."),
        (
            "give 5",
            "Usage: `/shutbox give @user N`, e.g. `/shutbox give @Ann 20`: N of your own "
            "chips go to Ann.",
        ),
    ],
)
async def test_each_refused_gift_is_one_private_line(
    slack: Driver, fake: FakeSlack, text: str, line: str
) -> None:
    fake.users["UROBO"] = {**slack_user("Robo"), "is_bot": True}
    assert await slack.say("UBOB", text) == line
    assert await slack.say("UBOB", "balance") == "You have 100 chips."


async def test_rank_after_a_gift(slack: Driver, fake: FakeSlack) -> None:
    """`/shutbox rank` and `rank @cid` post each one's place on the chips board."""
    await slack.say("UBOB", "give <@UCID|cid> 25")
    await slack.command("UBOB", "rank")
    await fake.wait_for(lambda: [m for m in fake.public if m.text.startswith("*Where Bob stands*")])
    await slack.command("UBOB", "rank <@UCID>")
    ranks: list[str] = await fake.wait_for(
        lambda: [m.text for m in fake.public if m.text.startswith("*Where Cid stands*")]
    )
    assert ranks[-1] == "*Where Cid stands*\n#1 of 2 by chips"
    bobs = [m.text for m in fake.public if m.text.startswith("*Where Bob stands*")]
    assert bobs[-1] == "*Where Bob stands*\n#2 of 2 by chips"
