"""Deadlines passing with nobody clicking: the sweep's result shown through the REST API."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from adapters.discord import ShutboxClient
from core.game.dice import SeededDice
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.conftest import PUBLIC_URL, SEED, running
from tests.e2e.discord.fake_discord import FakeDiscord, Request, buttons, text_of
from tests.e2e.discord.payloads import Json
from tests.e2e.discord.players import ANN, BOB, current, press

SWEEP_EVERY = 0.02
LOBBY_SECONDS = 600


class Clock:
    """A clock the test moves forward."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def shows_one_picture(fake: FakeDiscord, message: Json, sent: list[Request]) -> None:
    """The message shows the board picture: uploaded, its one attachment (gateway mode, no
    public address), or linked at the bot's public address (the HTTP mode's tests)."""
    image = message["embeds"][0]["image"]["url"]
    if fake.mode == "http":
        assert image.startswith(f"{PUBLIC_URL}/board/") and message["attachments"] == []
        assert sent and all(not request.uploads for request in sent)
        return
    assert image == "attachment://board.png"
    assert [a["filename"] for a in message["attachments"]] == ["board.png"]
    assert sent and all(len(request.uploads) == 1 for request in sent)


async def sweep_until(stop: asyncio.Event, manager: GameManager, client: ShutboxClient) -> None:
    """What the runtime's sweep does, handing each result to the client, until `stop` is set.

    Stopped by an event rather than by cancelling: on Python 3.11, redis-py's `wait_for` around
    every command can swallow a cancellation (see the report), and a frequent sweep hits it.
    """
    while not stop.is_set():
        for scope, reply in await manager.sweep("discord"):
            await client.show_timeout(scope, reply)
        await asyncio.sleep(SWEEP_EVERY)


@pytest.fixture
async def timed_bot(
    fake: FakeDiscord, store: RedisStore, clock: Clock
) -> AsyncIterator[tuple[ShutboxClient, GameManager]]:
    """The bot on a manager whose clock the test moves, with a deadline sweep running."""
    manager = GameManager(store, dice=SeededDice(SEED), clock=clock)
    async with running(fake, manager) as client:
        stop = asyncio.Event()
        sweeper = asyncio.create_task(sweep_until(stop, manager, client))
        yield client, manager
        stop.set()
        await sweeper


async def test_a_missed_turn_is_played_and_shown_by_editing_the_game_message(
    fake: FakeDiscord, timed_bot: tuple[ShutboxClient, GameManager], clock: Clock
) -> None:
    """When Ann lets the timer run out, the bot rolls for her ("auto") and edits the game
    message through PATCH /channels/{channel}/messages/{message}."""
    opened = await fake.answered(await fake.command(ANN, "solo", timer=10))
    game = opened.original
    assert game is not None

    clock.now += 11
    await fake.until(lambda: bool(fake.requests_to("PATCH", f"/messages/{game}")))
    await fake.settle()

    assert "(auto)" in text_of(fake.messages[game])
    # the edit through the channel replaces the picture too: one, of the board after the roll
    shows_one_picture(fake, fake.messages[game], fake.requests_to("PATCH", f"/messages/{game}"))


async def test_a_lobby_nobody_starts_closes_after_ten_minutes(
    fake: FakeDiscord, timed_bot: tuple[ShutboxClient, GameManager], clock: Clock
) -> None:
    """The lobby message loses its buttons and says why."""
    opened = await fake.answered(await fake.command(ANN, "start"))
    game = opened.original
    assert game is not None

    clock.now += LOBBY_SECONDS + 1
    await fake.until(lambda: not buttons(fake.messages[game]))
    await fake.settle()

    assert "Nobody started the game" in text_of(fake.messages[game])


async def test_a_deleted_game_message_is_posted_again_and_remembered(
    fake: FakeDiscord, timed_bot: tuple[ShutboxClient, GameManager], clock: Clock
) -> None:
    """If a moderator deleted the game message, the next change is posted as a new message
    whose id the game keeps, so the match goes on there."""
    _, manager = timed_bot
    opened = await fake.answered(await fake.command(ANN, "start", timer=10))
    game = opened.original
    assert game is not None
    await press(fake, BOB, game, "join")
    await press(fake, ANN, game, "begin")
    fake.deleted.add(game)

    clock.now += 11
    # (the turn calls are messages of their own: the game message is the one with an embed)
    await fake.until(lambda: any(m.get("embeds") for m in fake.channel_messages()))
    await fake.settle()

    posted = next(m for m in fake.channel_messages() if m.get("embeds"))
    assert "(auto)" in text_of(posted) and "**Bob**, your turn" in text_of(posted)
    game_posts = [r for r in fake.requests_to("POST", "/messages") if "embeds" in (r.body or {})]
    shows_one_picture(fake, posted, game_posts)
    record = await current(manager)
    assert record is not None and record.message == posted["id"]
    assert (await fake.answered(await fake.click(BOB, int(posted["id"])))).answer_type == 7
