"""`/shutbox give @user N` in a Slack workspace: chips move once, or one private line says why."""

from __future__ import annotations

import pytest

from tests.e2e.slack.conftest import slack_user
from tests.e2e.slack.driver import Driver
from tests.e2e.slack.fake_slack import FakeSlack
from tests.e2e.slack.test_commands import public_text


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


async def chips_board(slack: Driver, fake: FakeSlack) -> str:
    """The chips board as `/shutbox leaderboard chips` posts it now."""
    before = len(fake.public)
    await slack.command("UBOB", "leaderboard chips")
    boards: list[str] = await fake.wait_for(
        lambda: [m.text for m in fake.public[before:] if "Most chips" in m.text]
    )
    return boards[-1]


ABSENT = (
    "That isn’t a member of this server (or the account was deactivated), so no chips were moved."
)
UNVERIFIED = (
    "The platform couldn’t confirm that member just now, so no chips were moved. "
    "Please try again in a moment."
)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("give <@U0NOBODY> 5", ABSENT),
        ("give <@UGONE|gone> 5", ABSENT),
        ("give <@USLACKBOT> 5", "Slackbot is a bot, and bots don’t keep chips."),
        ("give <@UAPP> 5", "App is a bot, and bots don’t keep chips."),
        (f"give <@U{'X' * 3000}> 5", ABSENT),
    ],
)
async def test_chips_go_to_no_account_slack_does_not_confirm(
    slack: Driver, fake: FakeSlack, text: str, line: str
) -> None:
    """Nobody, a deactivated member, Slackbot, an app's user, an absurd id: refused before
    anything moves, and no account appears on the chips board."""
    fake.users["UGONE"] = {**slack_user("Gone"), "deleted": True}
    fake.users["UAPP"] = {**slack_user("App"), "is_app_user": True}
    assert await slack.say("UBOB", text) == line
    assert await slack.say("UBOB", "balance") == "You have 100 chips."
    empty = "*💰 Most chips*\nNobody has any chips yet: `daily` gives some."
    assert await chips_board(slack, fake) == empty


async def test_when_slack_cannot_say_the_gift_is_refused(slack: Driver, fake: FakeSlack) -> None:
    """users.info rate limited: one clear line, nothing moved, the label never trusted."""
    fake.limited.add("users.info")
    assert await slack.say("UBOB", "give <@UCID|Mallory> 1") == UNVERIFIED
    fake.limited.clear()
    assert await slack.say("UBOB", "balance") == "You have 100 chips."


async def test_the_name_shown_is_slacks_never_the_mentions_label(
    slack: Driver, fake: FakeSlack
) -> None:
    """`give <@UCID|Mallory> 1` pays Cid, and the receipt and the board say Cid."""
    assert await slack.say("UBOB", "give <@UCID|Mallory> 1") == (
        "You gave Cid 1 chip. Your balance: 99."
    )
    board = await chips_board(slack, fake)
    assert "Mallory" not in board and "1. Cid — 101" in board


async def test_an_admin_cannot_grant_to_a_bot_or_nobody(slack: Driver, fake: FakeSlack) -> None:
    fake.users["UROBO"] = {**slack_user("Robo"), "is_bot": True}
    assert await slack.say("UANN", "grant <@UROBO> 50") == (
        "Robo is a bot, and bots don’t keep chips."
    )
    assert await slack.say("UANN", "grant <@U0NOBODY|Eve> 50") == ABSENT
    await slack.command("UANN", "grant <@UBOB|Mallory> 5")
    assert await public_text(fake, "granted") == (
        "Ann granted Bob 5 chips from the bank (balance 105)."
    )


async def test_a_retried_delivery_gets_the_same_receipt_and_one_note(
    slack: Driver, fake: FakeSlack
) -> None:
    """Slack delivers the same `give` again (X-Slack-Retry-Num): the same receipt, the channel
    told once, the chips moved once."""
    body = slack.command_body("UBOB", "give <@UCID|cid> 25", key="gift")
    assert (await slack.post(body))[0] == 200
    await fake.reply("gift")
    assert (await slack.post(body, retry=1))[0] == 200
    await fake.wait_for(lambda: len(fake.replies("gift")) >= 2)
    receipt = "You gave Cid 25 chips. Your balance: 75."
    assert [r.text for r in fake.replies("gift")] == [receipt, receipt]
    assert [m.text for m in fake.public if m.text.startswith("🎁")] == ["🎁 Bob gave Cid 25 chips."]
    assert await slack.say("UBOB", "balance") == "You have 75 chips."
