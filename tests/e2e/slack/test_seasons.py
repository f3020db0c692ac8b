"""Seasons in a Slack workspace: an admin's `season end` archives and resets the boards, anyone
else is refused, and `leaderboard wins season=1` reads the archive."""

from __future__ import annotations

from core.service.model.commit import Commit, OpKind, Scope, StoreOp
from core.service.pipeline.manager import GameManager
from tests.e2e.slack.driver import TEAM, Driver
from tests.e2e.slack.fake_slack import FakeSlack

SCOPE = Scope("slack", TEAM)


async def public_text(fake: FakeSlack, marker: str) -> str:
    found: list[str] = await fake.wait_for(
        lambda: [m.text for m in fake.public if marker in m.text]
    )
    return found[-1]


async def bob_won_twice(manager: GameManager) -> None:
    ops = (
        StoreOp(OpKind.ZINCRBY, "lb:wins", "UBOB", 2),
        StoreOp(OpKind.HSET, "names", "UBOB", "Bob"),
    )
    await manager.store.commit(Commit(SCOPE, ops=ops))


async def test_an_admin_ends_the_season_and_the_old_board_stays_readable(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    await bob_won_twice(manager)
    await slack.command("UANN", "season end")
    assert await public_text(fake, "is over") == "🏁 Season 1 is over; Season 2 starts now."
    await slack.command("UCID", "leaderboard wins")
    assert await public_text(fake, "Nobody on this board") == (
        "*🏆 Most matches won*\nNobody on this board yet: win a match against another player"
        " (bots don’t count) to be the first."
    )
    await slack.command("UCID", "leaderboard wins season=1")
    assert await public_text(fake, "Season 1*") == "*🏆 Most matches won · Season 1*\n1. Bob — 2"
    await slack.command("UCID", "season")
    assert (await public_text(fake, "Season 2 started")).startswith("🗓️ Season 2 started on ")


async def test_season_end_is_for_admins_and_bad_season_words_are_one_line(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    await bob_won_twice(manager)
    assert await slack.say("UBOB", "season end") == "Only an admin can do that."
    assert await slack.say("UBOB", "leaderboard wins season=1") == (
        "There is no ended Season 1; this is Season 1."
    )
    assert await slack.say("UANN", "season end reset_chips=maybe") == (
        "“maybe” is not a valid value for reset_chips. Allowed: yes, no."
    )
    await slack.command("UCID", "leaderboard wins")
    assert await public_text(fake, "Bob — 2") == "*🏆 Most matches won*\n1. Bob — 2"
