"""A tournament on Discord (SPEC 12): the sign-up and the rounds in the channel, each table's
match in a thread of its own with its players called, every round advanced once, prizes paid
and the ledger balanced, through the fake Discord and the real discord.py code paths."""

from __future__ import annotations

from adapters.discord import ShutboxClient
from core.game.match import MatchFormat
from core.game.rules import preset
from core.game.tournament.standings import standings
from core.game.tournament.verify import pairing_faults
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord, buttons, text_of
from tests.e2e.discord.payloads import CHANNEL_ID
from tests.e2e.discord.players import MOD, SCOPE
from tests.e2e.discord.tournaments import PLAYERS, cup, in_channel, run_tournament


async def test_a_swiss_of_seven_plays_every_table_in_its_own_thread(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore
) -> None:
    final, said = await run_tournament(fake, store, "swiss", 3, 7)
    assert said[0].startswith("🏆 **Friday cup** has started with 7 players; the pot is 70 chips.")
    assert len(final.rounds) == 3 and all(r.bye for r in final.rounds)
    assert len(fake.threads) == 6  # two tables a round, each in its own thread
    names = [thread["name"] for thread in fake.threads.values()]
    assert names[0].startswith("Friday cup · round 1 · table 1: ")
    calls = [text_of(m) for m in fake.messages.values() if "your table is open" in text_of(m)]
    assert len(calls) == 6 and all("<@" in call for call in calls)
    # the end is posted in the channel after the last standings
    await fake.until(lambda: any("** is over: " in text for text in in_channel(fake)))
    for rounds in ("1 round", "2 rounds", "3 rounds"):  # after every round, in the channel
        assert any(f"— standings after {rounds}:" in text for text in in_channel(fake)), rounds
    assert (await store.verify_ledger(SCOPE)).ok
    assert pairing_faults(final) == []
    winner = standings(final)[0].player
    assert (await store.balances(SCOPE, [winner]))[winner] == 90 + 42


async def test_a_knockout_of_eight_plays_three_rounds(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore
) -> None:
    final, _ = await run_tournament(fake, store, "knockout", 2, 8)
    assert [len(r.tables) for r in final.rounds] == [4, 2, 1]
    assert len(fake.threads) == 7
    # a late repeat of a delivery never opens a second thread: the claim outlives any round
    kept = [k async for k in store._redis.scan_iter(match="*claim:post:table:*")]
    assert len(kept) == 7 and all([await store._redis.ttl(k) > 3600 for k in kept])
    assert (await store.verify_ledger(SCOPE)).ok
    assert pairing_faults(final) == []


async def test_the_sign_up_message_takes_entries_by_its_buttons(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore
) -> None:
    made = await fake.answered(await fake.command(MOD, "tournament", options={
        "action": "create", "name": "Cup"}))  # fmt: skip
    signup = made.original
    assert signup is not None
    join = next(b["custom_id"] for b in buttons(fake.messages[signup]) if b["label"] == "Join")
    pressed = await fake.answered(await fake.click(PLAYERS[0], signup, str(join)))
    assert pressed.answer_type == 7  # the sign-up message itself, edited in place
    assert text_of(fake.messages[signup]).splitlines()[-1] == "Players (1): Ann"
    stored = await store.hash(SCOPE, "tours")
    assert stored[str(CHANNEL_ID)]


async def test_create_takes_the_rules_and_the_format_as_the_chat_writes_them(
    fake: FakeDiscord, bot: ShutboxClient, store: RedisStore
) -> None:
    """`preset` and `format` are typed words on Discord too (`sailors`, `to-45:2`); a word that
    is neither is one private line, and no tournament is made."""
    bad = await fake.answered(await fake.command(MOD, "tournament", options={
        "action": "create", "name": "Odd cup", "format": "sideways"}))  # fmt: skip
    assert bad.ephemeral and "\n" not in bad.data["content"]
    assert not await store.hash(SCOPE, "tours")
    await fake.answered(await fake.command(MOD, "tournament", options={
        "action": "create", "name": "Sea cup", "preset": "sailors",
        "format": "rounds:2"}))  # fmt: skip
    made = await cup(store, (await store.hash(SCOPE, "tours"))[str(CHANNEL_ID)])
    assert made.settings.rules.to_str() == preset("sailors").to_str()
    assert made.settings.format == MatchFormat.parse("rounds:2")
