"""Playing a tournament through the fake Slack: the sign-up, each table's match in a thread
under its line pressed by whoever is to act, and the rounds one after another, so the tests of
a whole tournament (with or without a restart of the bot) share one way of playing it."""

from __future__ import annotations

from functools import partial

from core.game.tournament.values import Status, Tournament
from core.service.features.tournaments.records import load
from core.service.model.commit import Scope
from core.service.model.record import GameRecord
from core.store.redis_store import RedisStore
from tests.e2e.slack.conftest import slack_user
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message
from tests.e2e.slack.fake_slack.records import TEAM
from tests.e2e.slack.test_match import first_move

SCOPE = Scope("slack", TEAM)
NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal")
MAX_CLICKS = 400


def table_games(fake: FakeSlack) -> list[Message]:
    """The game messages posted in threads (one per table), oldest first."""
    return [m for m in fake.messages.values() if m.thread_ts and m.blocks and not m.summary]


def in_channel(fake: FakeSlack) -> list[str]:
    """The texts posted in the tournament's channel itself (not in its threads)."""
    return [m.text for m in fake.messages.values() if m.channel == CHANNEL and not m.thread_ts]


async def table_game(store: RedisStore, message: Message) -> GameRecord | None:
    """The table's game as Redis holds it now, whichever process of the bot moved it last."""
    channel = f"{message.channel}/{message.thread_ts}"
    stored = await store.load(SCOPE, channel)
    return None if stored is None else GameRecord.from_str(stored.record, channel)


async def play_table(
    slack: Driver, store: RedisStore, message: Message, clicks: int = MAX_CLICKS
) -> int:
    """Whoever is to act presses the first move, until the match ends or `clicks` have been
    made; the version of the table's game after the last click (0 once the match has ended)."""
    for _ in range(clicks):
        if not message.playing:
            return 0
        record = await table_game(store, message)
        assert record is not None and record.state.to_act is not None
        await slack.press(record.state.to_act.id, message, first_move(message))
    if clicks == MAX_CLICKS:
        raise AssertionError("the table's match did not end:\n" + message.body)
    record = await table_game(store, message)
    if record is None or not message.playing:
        return 0
    return record.version


def has_joined(fake: FakeSlack, name: str) -> bool:
    return any(f"{name} joined" in m.text for m in fake.public)


async def cup(store: RedisStore, tournament_id: str) -> Tournament:
    stored = await load(store, SCOPE, tournament_id)
    assert stored is not None
    return stored.tournament


async def start_tournament(slack: Driver, fake: FakeSlack, store: RedisStore, settings: str,
                           count: int) -> str:  # fmt: skip
    """Ann makes a cup with `settings` and a fee of 10, the first `count` players join, and it
    starts; its id."""
    for name in NAMES[4:]:
        fake.users[f"U{name.upper()}"] = slack_user(name)
    await slack.command("UANN", f"tournament create Friday cup {settings} fee=10")
    await fake.wait_for(lambda: any("sign up" in m.text for m in fake.messages.values()))
    for name in NAMES[:count]:
        await slack.command(f"U{name.upper()}", "tournament join")
        await fake.wait_for(partial(has_joined, fake, name))
    await slack.command("UANN", "tournament start")
    await fake.wait_for(lambda: table_games(fake))
    return (await store.hash(SCOPE, "tours"))[CHANNEL]


async def play_round(
    slack: Driver, fake: FakeSlack, store: RedisStore, tournament_id: str, played: set[str]
) -> None:
    """Wait for the current round's tables, then play every one not yet in `played` to its end."""
    now = await cup(store, tournament_id)
    assert now.status is Status.RUNNING and now.current is not None
    opened = len(played) + len(now.current.tables)
    await fake.wait_for(lambda: len(table_games(fake)) >= opened)
    for message in table_games(fake):
        if message.ts not in played:
            await play_table(slack, store, message)
            played.add(message.ts)


async def play_out(
    slack: Driver, fake: FakeSlack, store: RedisStore, tournament_id: str, played: set[str]
) -> Tournament:
    """Every round left, to the tournament's end; the tournament as it ended."""
    while (await cup(store, tournament_id)).status is Status.RUNNING:
        await play_round(slack, fake, store, tournament_id, played)
    return await cup(store, tournament_id)


async def run(slack: Driver, fake: FakeSlack, store: RedisStore, settings: str,
              count: int) -> Tournament:  # fmt: skip
    tournament_id = await start_tournament(slack, fake, store, settings, count)
    return await play_out(slack, fake, store, tournament_id, set())
