"""Playing a tournament through the fake Discord: the sign-up, each table's match in its
thread pressed by whoever is to act, and the rounds one after another, so the tests of a whole
tournament (with or without a restart of the bot) share one way of playing it."""

from __future__ import annotations

from core.game.tournament.values import Status, Tournament
from core.service.features.tournaments.records import load
from core.service.model.record import GameRecord
from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord, Json, playing, text_of
from tests.e2e.discord.payloads import CHANNEL_ID, User
from tests.e2e.discord.players import MOD, SCOPE

PLAYERS = tuple(User(1_300_000_000_000_100_000 + i, name) for i, name in
                enumerate(("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal")))  # fmt: skip
BY_ID = {str(user.id): user for user in PLAYERS}
MAX_PRESSES = 400


def game_message(fake: FakeDiscord, thread: int) -> Json | None:
    """The game message the bot posted in a thread (the one with buttons)."""
    posted = [m for m in fake.messages.values() if m["channel_id"] == str(thread)]
    return next((m for m in posted if m.get("embeds")), None)


def in_channel(fake: FakeDiscord) -> list[str]:
    """The texts the bot posted in the tournament's channel (not in its threads)."""
    return [text_of(m) for m in fake.messages.values() if m["channel_id"] == str(CHANNEL_ID)]


async def table_game(store: RedisStore, thread: int) -> GameRecord | None:
    """The table's game as Redis holds it now, whichever process of the bot moved it last."""
    stored = await store.load(SCOPE, str(thread))
    return None if stored is None else GameRecord.from_str(stored.record, str(thread))


async def play_thread(
    fake: FakeDiscord, store: RedisStore, thread: int, presses: int = MAX_PRESSES
) -> int:
    """Whoever is to act presses the thread's game message's first button, until the match
    ends or `presses` have been made; the version of the table's game after the last press
    (0 once the match has ended)."""
    await fake.until(lambda: game_message(fake, thread) is not None)
    message = game_message(fake, thread)
    assert message is not None
    for _ in range(presses):
        if not playing(fake.messages[int(message["id"])]):
            return 0
        record = await table_game(store, thread)
        assert record is not None and record.state.to_act is not None
        await fake.answered(await fake.click(BY_ID[record.state.to_act.id], int(message["id"])))
    if presses == MAX_PRESSES:
        raise AssertionError("the table's match did not end")
    record = await table_game(store, thread)
    if record is None or not playing(fake.messages[int(message["id"])]):
        return 0
    return record.version


async def cup(store: RedisStore, tournament_id: str) -> Tournament:
    stored = await load(store, SCOPE, tournament_id)
    assert stored is not None
    return stored.tournament


async def start_tournament(
    fake: FakeDiscord, store: RedisStore, kind: str, size: int, count: int
) -> tuple[str, str]:
    """The moderator makes a cup (3 rounds, tables of `size`, a fee of 10), the first `count`
    players join, and it starts: its id and what the bot said at the start."""
    made = await fake.answered(await fake.command(MOD, "tournament", options={
        "action": "create", "name": "Friday cup", "kind": kind, "rounds": 3, "table": size,
        "fee": 10}))  # fmt: skip
    assert made.data["content"].startswith("🏆 **Friday cup** — sign up with")
    for user in PLAYERS[:count]:
        await fake.answered(await fake.command(user, "tournament", action="join"))
    started = await fake.answered(await fake.command(MOD, "tournament", action="start"))
    return (await store.hash(SCOPE, "tours"))[str(CHANNEL_ID)], started.data["content"]


async def play_round(
    fake: FakeDiscord, store: RedisStore, tournament_id: str,
    played: set[int],
) -> Tournament:  # fmt: skip
    """Wait for the current round's threads, then play every table not yet in `played` to
    its end; the tournament as it stood when the round began."""
    now = await cup(store, tournament_id)
    assert now.status is Status.RUNNING and now.current is not None
    opened = len(played) + len(now.current.tables)
    await fake.until(lambda: len(fake.threads) >= opened)
    for thread in sorted(set(fake.threads) - played):
        await play_thread(fake, store, thread)
        played.add(thread)
    return now


async def play_out(
    fake: FakeDiscord, store: RedisStore, tournament_id: str,
    played: set[int],
) -> Tournament:  # fmt: skip
    """Every round left, to the tournament's end; the tournament as it ended."""
    while (await cup(store, tournament_id)).status is Status.RUNNING:
        await play_round(fake, store, tournament_id, played)
    return await cup(store, tournament_id)


async def run_tournament(fake: FakeDiscord, store: RedisStore, kind: str, size: int,
                         count: int) -> tuple[Tournament, list[str]]:  # fmt: skip
    tournament_id, started = await start_tournament(fake, store, kind, size, count)
    return await play_out(fake, store, tournament_id, set()), [started]
