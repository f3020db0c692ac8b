"""Every `/shutbox` subcommand does its job in a Slack channel (SPEC 4-6)."""

from __future__ import annotations

from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message


async def lobby(slack: Driver, fake: FakeSlack, user: str = "UBOB") -> Message:
    await slack.command(user, "start")
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    return found[0]


async def public_text(fake: FakeSlack, marker: str) -> str:
    found: list[str] = await fake.wait_for(
        lambda: [m.text for m in fake.public if marker in m.text]
    )
    return found[-1]


async def test_help_lists_the_commands_and_every_option(slack: Driver) -> None:
    """`/shutbox help` (and an empty `/shutbox`) name the commands and explain the options and
    settings; `/shutbox help grant` gives that command's line."""
    text = await slack.say("UBOB", "help")
    assert "`start`" in text and "`grant`" in text and "/shutbox help start" in text
    grant = await slack.say("UBOB", "help grant")
    assert "grant @user N" in grant and "`hints=yes|no`" not in grant
    assert "`hints=yes|no`" in await slack.say("UBOB", "help Start")
    options = ("`preset=classic|hard|sailors", "`rounds=N`", "`stakes=none|pot:A|canoga[:K]`")
    settings = ("`timer=", "`hints=yes|no`", "`lang=en|da|nb`", "`style=image|emoji|text`")
    for option in options + settings:
        assert option in text, option
    assert await slack.say("UBOB", "") == text


async def test_join_and_leave_by_command_edit_the_lobby(slack: Driver, fake: FakeSlack) -> None:
    """`/shutbox join` and `leave` change the lobby message like its buttons."""
    game = await lobby(slack, fake)
    await slack.command("UCID", "join")
    await fake.wait_for(lambda: "Bob, Cid" in game.body)
    await slack.command("UCID", "leave")
    await fake.wait_for(lambda: game.updates == 2)
    assert "Cid" not in game.body


async def test_only_the_host_or_an_admin_may_stop(slack: Driver, fake: FakeSlack) -> None:
    """Cid (a player) may not stop Bob's game; Ann, a workspace admin, may without joining it,
    and the game says she stopped it."""
    game = await lobby(slack, fake)
    assert await slack.say("UCID", "stop") == "Only the host (Bob) or an admin can stop this game."
    await slack.command("UANN", "stop")
    await fake.wait_for(lambda: game.updates == 1)
    assert "⏹ Ann stopped the game." in game.body and not game.buttons


async def test_an_admin_grants_chips_and_everyone_sees_it(slack: Driver, fake: FakeSlack) -> None:
    """`/shutbox grant @Bob 50` by Ann posts the grant; Bob's balance shows it."""
    await slack.command("UANN", "grant <@UBOB|bob> 50")
    granted = "Ann granted Bob 50 chips from the bank (balance 150)."
    assert await public_text(fake, "granted") == granted
    assert await slack.say("UBOB", "balance") == "You have 150 chips."
    await slack.command("UANN", "grant <@UBOB> -20")
    taken = "Ann took 20 chips from Bob back to the bank (balance 130)."
    assert await public_text(fake, "took") == taken


async def test_grant_and_config_changes_are_for_admins(slack: Driver) -> None:
    """Bob is no workspace admin: his grant and config change are refused; he may look."""
    assert await slack.say("UBOB", "grant <@UCID> 50") == "Only an admin can do that."
    assert await slack.say("UBOB", "config style=text") == "Only an admin can do that."
    looked = await slack.say("UBOB", "config")
    assert looked.startswith("Settings: lang=en, style=image")
    # Image is the default, but this app has no public address to serve pictures from
    assert looked.endswith(
        "\nPictures of the board need the bot's public web address (SHUTBOX_PUBLIC_URL), which "
        "this bot has not been given: new games here show the board as emoji until it is set."
    )


async def test_daily_balance_and_stats(slack: Driver, fake: FakeSlack) -> None:
    """Daily chips once a day; stats for yourself or a mentioned player are posted."""
    assert await slack.say("UCID", "daily") == "You claimed 25 chips. You now have 125 chips."
    assert (await slack.say("UCID", "daily")).startswith(
        "You already claimed your daily chips. Come back in 24 hours."
    )
    await slack.command("UBOB", "stats <@UCID>")
    assert "Chips: 125" in await public_text(fake, "Stats for Cid")
    await slack.command("UBOB", "stats")
    assert "Chips: 100" in await public_text(fake, "Stats for Bob")


async def test_rules_and_odds_of_a_preset(slack: Driver) -> None:
    """`rules sailors` and `odds preset=hard` answer privately."""
    assert "Sum or dice" in await slack.say("UBOB", "rules sailors")
    odds = await slack.say("UBOB", "odds preset=hard")
    assert odds.startswith("*Odds with optimal play: Hard*")


async def test_the_leaderboard_of_a_preset(slack: Driver, fake: FakeSlack) -> None:
    """`leaderboard best preset=sailors` posts that board (empty so far)."""
    await slack.command("UBOB", "leaderboard best preset=sailors")
    assert "Nobody on this board yet" in await public_text(fake, "Best single score")


async def test_a_channel_the_bot_cannot_post_in(slack: Driver, fake: FakeSlack) -> None:
    """Starting where the bot is not a member says how to invite it, and leaves no game."""
    fake.closed_channels.add("G0001")
    text = await slack.say("UBOB", "start", channel="G0001")
    assert text.startswith("I can’t post in this channel.")
    assert await slack.say("UBOB", "join", channel="G0001") == (
        "There is no game in this channel. Start one first."
    )


async def test_only_solo_games_in_a_direct_message(slack: Driver, fake: FakeSlack) -> None:
    """In a DM with the bot a lobby is refused, a solo game is played."""
    assert (await slack.say("UBOB", "start", channel="D0001")).startswith(
        "Only solo games can be played in a direct message."
    )
    await slack.command("UBOB", "solo", channel="D0001")
    found = await fake.wait_for(lambda: fake.game_messages("D0001"))
    assert "Roll" in [b["text"]["text"] for b in found[0].buttons]


async def test_a_leaderboard_where_the_bot_cannot_post_says_why(
    slack: Driver, fake: FakeSlack
) -> None:
    """A public answer that cannot be posted turns into the same private hint."""
    fake.closed_channels.add("G0002")
    text = await slack.say("UBOB", "leaderboard", channel="G0002")
    assert text.startswith("I can’t post in this channel.")


async def test_an_admin_reads_the_audit_log_privately(slack: Driver, fake: FakeSlack) -> None:
    """Ann (a workspace admin) sees her settings change in `/shutbox audit`; Bob may not look."""
    await slack.command("UANN", "config style=text")
    assert await slack.say("UBOB", "audit") == "Only an admin can do that."
    first, line = (await slack.say("UANN", "audit")).splitlines()
    assert first.startswith("*Audit log* — the latest 1 admin action, newest first")
    assert line.endswith(" · Ann changed settings · style=image→text")
