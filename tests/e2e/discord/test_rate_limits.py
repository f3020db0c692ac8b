"""A member past their rate limit, through discord.py and the fake Discord: one private line,
the game unchanged, other members answered (issue 23)."""

from __future__ import annotations

import copy
import re

import pytest

from adapters.discord import ShutboxClient
from core.game.dice import SeededDice
from core.service.model.rate_limits import Limit
from core.service.pipeline.manager import GameManager
from core.service.pipeline.rate_limit import RateLimits
from core.store.redis_store import RedisStore
from tests.e2e.discord.conftest import SEED
from tests.e2e.discord.fake_discord import FakeDiscord, buttons
from tests.e2e.discord.payloads import CHANNEL_ID
from tests.e2e.discord.players import ANN, BOB, version

TOO_FAST = re.compile(r"You're going a bit fast; try again in \d+ s\.")


@pytest.fixture
def manager(store: RedisStore) -> GameManager:
    """Four commands and one new game per half minute per member."""
    limits = RateLimits(store.admin, Limit(4, 30), Limit(1, 30))
    return GameManager(store, dice=SeededDice(SEED), middleware=(limits,))


async def test_past_the_limit_a_member_is_told_privately_and_nothing_changes(
    fake: FakeDiscord, bot: ShutboxClient, manager: GameManager
) -> None:
    opened = await fake.answered(await fake.command(ANN, "solo"))
    game = opened.original
    assert game is not None
    for _ in range(3):
        balance = await fake.answered(await fake.command(ANN, "balance"))
        assert balance.data["content"] == "You have 100 chips."
    before, before_version = copy.deepcopy(fake.messages[game]), await version(manager)
    refused = await fake.answered(await fake.command(ANN, "balance"))
    assert refused.ephemeral and TOO_FAST.fullmatch(refused.data["content"])
    roll = buttons(fake.messages[game])[0]["custom_id"]
    clicked = await fake.answered(await fake.click(ANN, game, roll))
    assert clicked.answer_type == 4 and clicked.ephemeral  # the message is current: not edited
    assert TOO_FAST.fullmatch(clicked.data["content"])
    assert await version(manager) == before_version
    assert buttons(fake.messages[game]) == buttons(before)
    assert (await fake.answered(await fake.command(BOB, "balance"))).data["content"] == (
        "You have 100 chips."
    )


async def test_a_second_new_game_in_the_window_is_refused(
    fake: FakeDiscord, bot: ShutboxClient
) -> None:
    await fake.answered(await fake.command(BOB, "solo"))
    refused = await fake.answered(await fake.command(BOB, "solo", channel_id=CHANNEL_ID + 1))
    assert refused.ephemeral
    assert re.fullmatch(r"You're opening games a bit fast; try again in \d+ s\.",
                        refused.data["content"])  # fmt: skip
