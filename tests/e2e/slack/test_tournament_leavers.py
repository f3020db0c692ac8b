"""A member whose Slack account was deactivated before a tournament starts (SPEC 12):
`users.info` says `deleted`, the start takes them off the entries with their held fee
released, and the channel is told in one line; and a start time's post, which has no game."""

from __future__ import annotations

from adapters.slack.app import SlackBot
from adapters.slack.membership import WorkspaceMembership
from core.service.features.tournaments.records import load, pot_account
from core.service.model.views import Reply
from core.service.pipeline.manager import GameManager
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import FakeSlack
from tests.e2e.slack.tournaments import SCOPE


async def test_a_deactivated_member_is_taken_off_at_the_start_with_the_fee_back(
    slack: Driver, fake: FakeSlack, manager: GameManager, bot: SlackBot
) -> None:
    manager.membership = WorkspaceMembership(bot.client_for)
    await slack.command("UANN", "tournament create Cup fee=10")
    await fake.wait_for(lambda: any("sign up" in m.text for m in fake.messages.values()))
    for name in ("Ann", "Bob", "Cid"):
        await slack.command(f"U{name.upper()}", "tournament join")
        await fake.wait_for(lambda name=name: any(f"{name} joined" in m.text for m in fake.public))
    fake.users["UBOB"]["deleted"] = True
    await slack.command("UANN", "tournament start")
    await fake.wait_for(lambda: any("has started" in m.text for m in fake.public))
    assert any(m.text == "Bob has left the server and is out of *Cup*." for m in fake.public)
    tournament_id = (await manager.store.hash(SCOPE, "tours"))[CHANNEL]
    stored = await load(manager.store, SCOPE, tournament_id)
    assert stored is not None and stored.tournament.players == ("UANN", "UCID")
    pot = pot_account(tournament_id)
    balances = await manager.store.balances(SCOPE, ["UBOB", pot])
    assert (balances["UBOB"], balances[pot]) == (100, 20)
    assert (await manager.store.verify_ledger(SCOPE)).ok


async def test_a_timed_start_swept_without_a_game_is_posted_in_the_tournaments_channel(
    fake: FakeSlack, bot: SlackBot
) -> None:
    """The sweep's reply for a start time has no game: its texts go to the channel named."""
    said = "🏆 **Cup** has started with 2 players; the pot is 20 chips."
    await bot.on_timeout(SCOPE, Reply(elsewhere=((CHANNEL, said),)))
    posted = "🏆 *Cup* has started with 2 players; the pot is 20 chips."
    assert [m.text for m in fake.public] == [posted]
