"""`shutbox discord` killed (SIGKILL) while Discord holds its answer to a click, then restarted.

The move was committed but the game message never showed it. The next click on that message
brings it up to the game as it stands, and the click after that plays: nothing waits for the
turn timer.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from redis.asyncio import Redis

from core.store.redis_store import RedisStore
from tests.e2e.discord.fake_discord import FakeDiscord, buttons
from tests.e2e.discord.payloads import CHANNEL_ID
from tests.e2e.discord.players import ANN, SCOPE
from tests.e2e.discord.test_cli import START_SECONDS, bot_process
from tests.e2e.slack.test_cli import free_port

# Discord holding a callback while the process dies is a gateway-mode story; over HTTP
# the answer is the response to the POST (tests/e2e/discord/test_http_mode.py).
pytestmark = pytest.mark.gateway_only

EPHEMERAL = 64


def labels(fake: FakeDiscord, message: int) -> list[str]:
    return [str(button.get("label")) for button in buttons(fake.messages[message])]


async def version(store: RedisStore) -> int:
    stored = await store.load(SCOPE, str(CHANNEL_ID))
    assert stored is not None
    return stored.version


async def test_a_click_after_a_restart_catches_the_message_up_then_plays(
    fake: FakeDiscord, redis: Redis, redis_url: str, store: RedisStore, tmp_path: Path
) -> None:
    async with bot_process(fake, redis_url, tmp_path, free_port()) as process:
        await fake.wait_ready(within=START_SECONDS)
        opened = await fake.answered(await fake.command(ANN, "solo"))
        game = opened.original
        assert game is not None and "Roll" in labels(fake, game)
        before = await version(store)

        fake.hold()
        await fake.click(ANN, game)  # Roll: committed, but its answer never lands
        await fake.until(lambda: bool(fake.held))
        process.send_signal(signal.SIGKILL)
        await process.wait()
        await fake.release(drop=True)
    assert await version(store) == before + 1 and "Roll" in labels(fake, game)

    async with bot_process(fake, redis_url, tmp_path, free_port()):
        await fake.until(lambda: fake.identified() >= 1, START_SECONDS)
        refreshed = await fake.answered(await fake.click(ANN, game))  # the old Roll button
        assert refreshed.answer_type == 7 and "Roll" not in labels(fake, game)
        await fake.until(lambda: bool(refreshed.followups))
        (note,) = [fake.messages[m] for m in refreshed.followups]
        assert int(note["flags"]) & EPHEMERAL and "earlier moment" in note["content"]
        assert await version(store) == before + 1

        played = await fake.answered(await fake.click(ANN, game))  # the first move shown
        assert played.answer_type == 7 and not played.followups
        assert await version(store) == before + 2
