"""A member who left the guild before a tournament starts (SPEC 12): Discord answers 404
"Unknown Member" for them, the start takes them off the entries with their held fee released,
and the channel is told in one line."""

from __future__ import annotations

from adapters.discord import ShutboxClient
from adapters.discord.membership import GuildMembership
from core.service.features.tournaments.records import load, pot_account
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord, text_of
from tests.e2e.discord.payloads import CHANNEL_ID
from tests.e2e.discord.players import MOD, SCOPE
from tests.e2e.discord.tournaments import PLAYERS


async def test_a_member_who_left_the_guild_is_taken_off_at_the_start_with_the_fee_back(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager, store: RedisStore
) -> None:
    manager.membership = GuildMembership(bot)
    ann, bob, cid = PLAYERS[:3]
    await fake.answered(await fake.command(MOD, "tournament", options={
        "action": "create", "name": "Cup", "fee": 10}))  # fmt: skip
    for user in (ann, bob, cid):
        await fake.answered(await fake.command(user, "tournament", action="join"))
    fake.members.left.add(str(bob.id))
    started = await fake.answered(await fake.command(MOD, "tournament", action="start"))
    posted = [started.original, *started.followups]
    shown = "\n".join(text_of(fake.messages[m]) for m in posted if m in fake.messages)
    assert "Bob has left the server and is out of **Cup**." in shown
    assert "🏆 **Cup** has started with 2 players; the pot is 20 chips." in shown
    tournament_id = (await store.hash(SCOPE, "tours"))[str(CHANNEL_ID)]
    stored = await load(store, SCOPE, tournament_id)
    assert stored is not None and stored.tournament.players == (str(ann.id), str(cid.id))
    pot = pot_account(tournament_id)
    balances = await store.balances(SCOPE, [str(bob.id), pot])
    assert (balances[str(bob.id)], balances[pot]) == (100, 20)
    assert (await store.verify_ledger(SCOPE)).ok

