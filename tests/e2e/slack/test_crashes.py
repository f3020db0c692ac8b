"""`shutbox slack` killed (SIGKILL) in the middle of a click, then started again.

Whether the kill came before or after the commit, the game moves exactly once for the click, and
the game message catches up with Redis: a retried delivery or the next click shows the game as
it stands, and the click after that plays. The game never waits for its turn deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from core.service.model.commit import Scope
from core.store.redis_store import RedisStore
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message
from tests.e2e.slack.test_cli import free_port, slack_env, wait_until_healthy
from tests.e2e.slack.test_match import first_move

SCOPE = Scope("slack", TEAM)


@dataclass
class BotProcess:
    """`python -m bot.cli slack` on a fixed port, which can be killed and started again."""

    fake: FakeSlack
    redis_url: str
    folder: Path
    port: int
    health: int
    process: asyncio.subprocess.Process | None = None

    @property
    def events_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/slack/events"

    async def start(self) -> None:
        log = (self.folder / "slack.log").open("ab")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "slack", "--port", str(self.port),
            "--host", "127.0.0.1", cwd=self.folder, stdout=log, stderr=log,
            env=slack_env(self.fake, self.redis_url, self.folder / "data", self.health),
        )  # fmt: skip
        async with aiohttp.ClientSession() as http:
            await wait_until_healthy(http, f"http://127.0.0.1:{self.health}/healthz")

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(self.process.wait(), 10)


@pytest.fixture
async def bot(
    fake: FakeSlack, redis_url: str, tmp_path: Path, redis: object
) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, redis_url, tmp_path, free_port(), free_port())
    await process.start()
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            await process.stop()


async def version(store: RedisStore) -> int:
    stored = await store.load(SCOPE, CHANNEL)
    assert stored is not None
    return stored.version


async def solo(slack: Driver, fake: FakeSlack) -> Message:
    assert (await slack.command("UANN", "solo")).status == 200
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    await fake.wait_for(lambda: fake.called("chat.postMessage") and len(fake.calls) >= 3)
    return found[0]


async def test_killed_after_the_commit_then_the_retry_moves_the_game_once(
    bot: BotProcess, fake: FakeSlack, store: RedisStore
) -> None:
    """Slack retries the click the dead bot never answered in full: one roll, shown."""
    async with aiohttp.ClientSession() as http:
        slack = Driver(http, bot.events_url, fake)
        game = await solo(slack, fake)
        before = await version(store)
        fake.hold("chat.update")
        body = slack.click_body("UANN", game, game.button("Roll"), key="roll",
                                action_ts="1700007000.000001")  # fmt: skip
        assert (await slack.post(body))[0] == 200
        await fake.wait_for(lambda: fake.holding)  # committed; the edit is on its way
        await bot.kill()
        await fake.release("chat.update", drop=True)
        assert await version(store) == before + 1 and "Roll" in [
            b["text"]["text"] for b in game.buttons
        ]

        await bot.start()
        assert (await slack.post(body, retry=1))[0] == 200
        await fake.wait_for(lambda: game.updates >= 1)
        assert await version(store) == before + 1  # the retry did not roll again
        assert "Roll" not in [b["text"]["text"] for b in game.buttons]
        await slack.press("UANN", game, first_move(game))
        assert await version(store) == before + 2


async def test_killed_while_the_edit_is_held_the_next_click_catches_up(
    bot: BotProcess, fake: FakeSlack, store: RedisStore
) -> None:
    """After the restart the message still shows Roll: pressing it refreshes the message to
    the roll that was made, and the move pressed next plays."""
    async with aiohttp.ClientSession() as http:
        slack = Driver(http, bot.events_url, fake)
        game = await solo(slack, fake)
        before = await version(store)
        fake.hold("chat.update")
        await slack.click("UANN", game, game.button("Roll"))
        await fake.wait_for(lambda: fake.holding)
        await bot.kill()
        await fake.release("chat.update", drop=True)

        await bot.start()
        stale = await slack.click("UANN", game, game.button("Roll"))
        note = await fake.reply(stale.key)
        assert "earlier moment" in note.text
        await fake.wait_for(lambda: game.updates >= 1)
        assert await version(store) == before + 1
        await slack.press("UANN", game, first_move(game))
        assert await version(store) == before + 2


async def test_killed_before_the_commit_then_the_retry_applies_it_once(
    bot: BotProcess, fake: FakeSlack, store: RedisStore
) -> None:
    """Bob's Join dies while the bot looks him up (nothing committed yet): Slack's retry, to the
    restarted bot, seats him once."""
    async with aiohttp.ClientSession() as http:
        slack = Driver(http, bot.events_url, fake)
        assert (await slack.command("UANN", "start")).status == 200
        [lobby] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
        before = await version(store)
        fake.hold("users.info")
        body = slack.click_body("UBOB", lobby, lobby.button("Join"), key="join",
                                action_ts="1700007100.000001")  # fmt: skip
        assert (await slack.post(body))[0] == 200
        await fake.wait_for(lambda: fake.holding)
        await bot.kill()
        await fake.release("users.info", drop=True)
        assert await version(store) == before

        await bot.start()
        assert (await slack.post(body, retry=1))[0] == 200
        await fake.wait_for(lambda: "Bob" in lobby.body)
        assert (await slack.post(body, retry=2))[0] == 200  # and once more, for good measure
        await slack.say("UCID", "balance")
        assert await version(store) == before + 1
        assert lobby.body.count("Bob") == 1
