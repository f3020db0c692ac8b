"""Work slower than Discord's 3 seconds: the interaction is deferred first, then answered."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from adapters.discord import ShutboxClient, interactions
from core.game.dice import SeededDice
from core.service.model.context import Context
from core.service.model.views import Reply
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.e2e.discord.conftest import SEED, running
from tests.e2e.discord.fake_discord import FakeDiscord, text_of
from tests.e2e.discord.payloads import EPHEMERAL, LOADING
from tests.e2e.discord.players import ANN

BUDGET = 0.05  # the answer budget in these tests, instead of 2 s
WORK = 0.2  # how long every manager call takes here

DEFERRED_MESSAGE, DEFERRED_UPDATE = 5, 6


class SlowManager(GameManager):
    """A manager whose every command takes `WORK` seconds (a slow Redis, say)."""

    async def handle(
        self, ctx: Context, work: Callable[[], Awaitable[Reply]], **options: Any
    ) -> Reply:
        await asyncio.sleep(WORK)
        return await super().handle(ctx, work, **options)


@pytest.fixture
async def slow_bot(
    fake: FakeDiscord, store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[ShutboxClient]:
    monkeypatch.setattr(interactions, "ANSWER_BUDGET", BUDGET)
    async with running(fake, SlowManager(store, dice=SeededDice(SEED))) as client:
        yield client


async def test_a_slow_private_reply_is_deferred_then_filled_in(
    fake: FakeDiscord, slow_bot: ShutboxClient
) -> None:
    """`/shutbox balance` first shows Discord's ephemeral "thinking" state, then the answer
    replaces it."""
    answer = await fake.answered(await fake.command(ANN, "balance"))
    assert answer.answer_type == DEFERRED_MESSAGE and answer.ephemeral
    original = answer.original
    assert original is not None
    await fake.until(lambda: not int(fake.messages[original]["flags"]) & LOADING)

    shown = fake.messages[original]
    assert shown["content"] == "You have 100 chips."
    assert int(shown["flags"]) == EPHEMERAL  # no longer loading


async def test_a_slow_start_posts_the_lobby_in_place_of_the_thinking_message(
    fake: FakeDiscord, slow_bot: ShutboxClient
) -> None:
    """A deferred `/shutbox start` turns its public "thinking" message into the lobby."""
    answer = await fake.answered(await fake.command(ANN, "start"))
    assert answer.answer_type == DEFERRED_MESSAGE and not answer.ephemeral
    original = answer.original
    assert original is not None
    await fake.until(lambda: not int(fake.messages[original]["flags"]) & LOADING)

    assert "join the game" in text_of(fake.messages[original])


async def test_a_slow_start_that_fails_answers_privately(
    fake: FakeDiscord, slow_bot: ShutboxClient
) -> None:
    """A deferred start with a bad option removes the public "thinking" message and says what
    is wrong privately."""
    answer = await fake.answered(await fake.command(ANN, "start", preset="bogus"))
    await fake.until(lambda: bool(answer.followups))

    assert answer.original in fake.deleted
    (note,) = [fake.messages[m] for m in answer.followups]
    assert int(note["flags"]) & EPHEMERAL and note["content"].startswith("Unknown preset")


async def test_a_slow_click_is_deferred_then_edits_the_game_message(
    fake: FakeDiscord, slow_bot: ShutboxClient
) -> None:
    """A slow button press is acknowledged at once (deferred update), then the game message
    it came from is edited."""
    opened = await fake.answered(await fake.command(ANN, "solo"))
    game = opened.original
    assert game is not None
    await fake.until(lambda: bool(fake.messages[game]["embeds"]))

    edits = len(fake.requests_to("PATCH", "/messages/@original"))

    click = await fake.answered(await fake.click(ANN, game))
    await fake.until(lambda: "rolled" in text_of(fake.messages[game]))

    assert click.answer_type == DEFERRED_UPDATE and click.original == game
    assert len(fake.requests_to("PATCH", "/messages/@original")) == edits + 1


async def test_a_slow_challenge_fills_in_its_private_screen_and_edits_it_after_a_click(
    fake: FakeDiscord, slow_bot: ShutboxClient
) -> None:
    """`/shutbox challenge` is deferred ephemerally and its "thinking" message becomes the
    private screen; a slow click on it is deferred and the same screen is then edited."""
    answer = await fake.answered(await fake.command(ANN, "challenge"))
    assert answer.answer_type == DEFERRED_MESSAGE and answer.ephemeral
    screen = answer.original
    assert screen is not None
    await fake.until(lambda: not int(fake.messages[screen]["flags"]) & LOADING)
    assert int(fake.messages[screen]["flags"]) == EPHEMERAL
    assert text_of(fake.messages[screen]).startswith("Daily challenge #1")

    before = text_of(fake.messages[screen])
    click = await fake.answered(await fake.click(ANN, screen))
    assert click.answer_type == DEFERRED_UPDATE
    await fake.until(lambda: text_of(fake.messages[screen]) != before)
    assert "rolled" in text_of(fake.messages[screen])
    assert fake.channel_messages() == []  # nothing of it in the channel
