"""Discord delivers every interaction twice with the same id (as after a gateway resume).

A whole pot match played so: each step moves the game once and is answered once, the game
message is posted once, each summary appears once, and antes, pots and stats apply once.
"""

from __future__ import annotations

from collections import Counter

from adapters.discord import ShutboxClient
from core.service.model.commit import MINT
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord, Sent, playing, text_of
from tests.e2e.discord.payloads import CHANNEL_ID
from tests.e2e.discord.players import ANN, BOB, CID, MAX_PRESSES, SCOPE, button_id, by_id, current

PLAYERS = (ANN, BOB, CID)


async def twice(fake: FakeDiscord, sent: Sent) -> Sent:
    """The same interaction again at once; the one answer it gets, and what follows it."""
    await fake.redeliver(sent)
    answered = await fake.answered(sent)
    assert len(answered.callbacks) == 1
    return answered


async def test_every_interaction_twice_plays_one_match(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager, store: RedisStore
) -> None:
    opened = await twice(fake, await fake.command(ANN, "start", stakes="pot:5", rounds=2))
    game = opened.original
    assert game is not None
    for user, verb in ((BOB, "join"), (CID, "join"), (ANN, "begin")):
        await twice(fake, await fake.click(user, game, button_id(fake, game, verb)))

    for _ in range(MAX_PRESSES):
        if not playing(fake.messages[game]):
            break
        record = await current(manager)
        assert record is not None and record.state.to_act is not None
        before = record.version
        await twice(fake, await fake.click(by_id(record.state.to_act.id), game))
        after = await current(manager)
        assert after is None or after.version == before + 1

    assert "game over" in text_of(fake.messages[game])
    games = [m for m in fake.channel_messages(CHANNEL_ID) if m.get("embeds")]
    assert [int(m["id"]) for m in games] == [game]
    summaries = Counter(text_of(m) for m in fake.channel_messages() if int(m["id"]) != game)
    assert summaries and all(count == 1 for count in summaries.values()), summaries
    assert sum("**Match over**" in text for text in summaries) == 1

    accounts = [str(user.id) for user in PLAYERS]
    balances = await store.balances(SCOPE, [*accounts, MINT, f"pot:{CHANNEL_ID}"])
    assert sum(balances.values()) == 0 and balances.get(f"pot:{CHANNEL_ID}", 0) == 0
    for account in accounts:
        assert (await store.hash(SCOPE, f"stats:{account}")).get("games") == "1"
    assert (await store.verify_ledger(SCOPE)).ok
