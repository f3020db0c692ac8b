"""A tournament in a Slack workspace (SPEC 12): the sign-up and rounds in the channel, each
table's match in a thread under its line (`thread_ts`), every round advanced once, prizes
paid and the ledger balanced, through the fake Slack and the real slack-bolt code paths."""

from __future__ import annotations

from core.game.tournament.standings import standings
from core.game.tournament.values import Status, Tournament
from core.game.tournament.verify import pairing_faults
from core.service.features.tournaments.records import load
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from tests.e2e.slack.conftest import slack_user
from tests.e2e.slack.driver import CHANNEL, TEAM, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message
from tests.e2e.slack.test_match import first_move

SCOPE = Scope("slack", TEAM)
NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal")
MAX_CLICKS = 400


def table_games(fake: FakeSlack) -> list[Message]:
    """The game messages posted in threads (one per table), oldest first."""
    return [m for m in fake.messages.values() if m.thread_ts and m.blocks and not m.summary]


async def play_table(slack: Driver, manager: GameManager, message: Message) -> None:
    channel = f"{message.channel}/{message.thread_ts}"
    for _ in range(MAX_CLICKS):
        if not message.playing:
            return
        record = await manager.current(Context(SCOPE, channel, "watcher", "Watcher"))
        assert record is not None and record.state.to_act is not None
        await slack.press(record.state.to_act.id, message, first_move(message))
    raise AssertionError("the table's match did not end:\n" + message.body)


async def cup(manager: GameManager, tournament_id: str) -> Tournament:
    stored = await load(manager.store, SCOPE, tournament_id)
    assert stored is not None
    return stored.tournament


async def run(slack: Driver, fake: FakeSlack, manager: GameManager, settings: str,
              count: int) -> Tournament:  # fmt: skip
    for name in NAMES[4:]:
        fake.users[f"U{name.upper()}"] = slack_user(name)
    await slack.command("UANN", f"tournament create Friday cup {settings} fee=10")
    await fake.wait_for(lambda: any("sign up" in m.text for m in fake.messages.values()))
    for name in NAMES[:count]:
        await slack.command(f"U{name.upper()}", "tournament join")
        await fake.wait_for(lambda name=name: any(f"{name} joined" in m.text for m in fake.public))
    await slack.command("UANN", "tournament start")
    await fake.wait_for(lambda: table_games(fake))
    tournament_id = (await manager.store.hash(SCOPE, "tours"))[CHANNEL]
    played: set[str] = set()
    while (now := await cup(manager, tournament_id)).status is Status.RUNNING:
        assert now.current is not None
        opened = len(played) + len(now.current.tables)
        await fake.wait_for(lambda opened=opened: len(table_games(fake)) >= opened)
        for message in table_games(fake):
            if message.ts not in played:
                await play_table(slack, manager, message)
                played.add(message.ts)
    return await cup(manager, tournament_id)


async def test_a_swiss_of_seven_plays_every_table_in_a_thread(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    final = await run(slack, fake, manager, "kind=swiss rounds=3 table=3", 7)
    assert len(final.rounds) == 3 and all(r.bye for r in final.rounds)
    games = table_games(fake)
    assert len(games) == 6 and len({m.thread_ts for m in games}) == 6
    lines = {m.ts: m.text for m in fake.messages.values() if m.ts in {g.thread_ts for g in games}}
    assert all(text.startswith("Friday cup · round ") for text in lines.values())
    def in_channel() -> list[str]:
        return [m.text for m in fake.messages.values() if m.channel == CHANNEL and not m.thread_ts]

    # the end is posted in the channel after the last standings
    await fake.wait_for(lambda: any("* is over: " in text for text in in_channel()))
    for rounds in ("1 round", "2 rounds", "3 rounds"):  # after every round, in the channel
        assert any(f"— standings after {rounds}:" in text for text in in_channel()), rounds
    calls = [m for m in fake.messages.values() if "your table is open" in m.text]
    assert len(calls) == 6 and all(m.thread_ts for m in calls)
    assert (await manager.store.verify_ledger(SCOPE)).ok
    assert pairing_faults(final) == []
    winner = standings(final)[0].player
    assert (await manager.store.balances(SCOPE, [winner]))[winner] == 90 + 42


async def test_a_knockout_of_eight_plays_three_rounds(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    final = await run(slack, fake, manager, "kind=knockout table=2", 8)
    assert [len(r.tables) for r in final.rounds] == [4, 2, 1]
    assert len(table_games(fake)) == 7
    assert (await manager.store.verify_ledger(SCOPE)).ok
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
