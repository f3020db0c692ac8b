"""A tournament in a Slack workspace (SPEC 12): the sign-up and rounds in the channel, each
table's match in a thread under its line (`thread_ts`), every round advanced once, prizes
paid and the ledger balanced, through the fake Slack and the real slack-bolt code paths."""

from __future__ import annotations

from core.game.tournament.standings import standings
from core.game.tournament.verify import pairing_faults
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.slack.driver import Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message
from tests.e2e.slack.tournaments import SCOPE, in_channel, run, table_games


def store_of(manager: GameManager) -> RedisStore:
    assert isinstance(manager.store, RedisStore)
    return manager.store


async def test_a_swiss_of_seven_plays_every_table_in_a_thread(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    final = await run(slack, fake, store_of(manager), "kind=swiss rounds=3 table=3", 7)
    assert len(final.rounds) == 3 and all(r.bye for r in final.rounds)
    games = table_games(fake)
    assert len(games) == 6 and len({m.thread_ts for m in games}) == 6
    lines = {m.ts: m.text for m in fake.messages.values() if m.ts in {g.thread_ts for g in games}}
    assert all(text.startswith("Friday cup · round ") for text in lines.values())
    # the end is posted in the channel after the last standings
    await fake.wait_for(lambda: any("* is over: " in text for text in in_channel(fake)))
    for rounds in ("1 round", "2 rounds", "3 rounds"):  # after every round, in the channel
        assert any(f"— standings after {rounds}:" in text for text in in_channel(fake)), rounds
    calls = [m for m in fake.messages.values() if "your table is open" in m.text]
    assert len(calls) == 6 and all(m.thread_ts for m in calls)
    assert (await store_of(manager).verify_ledger(SCOPE)).ok
    assert pairing_faults(final) == []
    winner = standings(final)[0].player
    assert (await store_of(manager).balances(SCOPE, [winner]))[winner] == 90 + 42


async def test_a_knockout_of_eight_plays_three_rounds(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    final = await run(slack, fake, store_of(manager), "kind=knockout table=2", 8)
    assert [len(r.tables) for r in final.rounds] == [4, 2, 1]
    assert len(table_games(fake)) == 7
    assert (await store_of(manager).verify_ledger(SCOPE)).ok
    assert pairing_faults(final) == []


async def test_the_sign_up_message_takes_entries_by_its_buttons(
    slack: Driver, fake: FakeSlack
) -> None:
    await slack.command("UANN", "tournament create Cup")
    found: list[Message] = await fake.wait_for(
        lambda: [m for m in fake.messages.values() if "sign up" in m.text and m.buttons])
    signup = found[0]
    join = next(b["action_id"] for b in signup.buttons if b["text"]["text"] == "Join")
    await slack.press("UBOB", signup, str(join))
    assert signup.body.splitlines()[-1] == "Players (1): Bob"
