"""Slack's requests are checked and answered in time: signatures, timestamps, retries (SPEC 3)."""

from __future__ import annotations

import time

from redis.asyncio import Redis

from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.pipeline.manager import GameManager
from tests.e2e.slack.driver import CHANNEL, Driver, signed_headers
from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message

SIX_MINUTES = 6 * 60


async def lobby(slack: Driver, fake: FakeSlack, text: str = "start") -> Message:
    sent = await slack.command("UANN", text)
    assert sent.status == 200
    found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    return found[0]


async def version(manager: GameManager) -> int | None:
    record = await manager.current(Context(Scope("slack", TEAM), CHANNEL, "watcher", "Watcher"))
    return None if record is None else record.version


async def test_a_bad_signature_is_refused(slack: Driver, fake: FakeSlack) -> None:
    """A request signed with another secret gets 401 and starts nothing."""
    body = slack.command_body("UANN", "start", key="forged")
    status, _ = await slack.post(body, headers=signed_headers(body, secret="not-the-secret"))
    assert status == 401
    assert not fake.called("chat.postMessage") and not fake.responses


async def test_a_timestamp_older_than_five_minutes_is_refused(
    slack: Driver, fake: FakeSlack
) -> None:
    """A correctly signed but six-minute-old request (a replay) gets 401."""
    body = slack.command_body("UANN", "start", key="replay")
    old = signed_headers(body, timestamp=int(time.time()) - SIX_MINUTES)
    status, _ = await slack.post(body, headers=old)
    assert status == 401
    assert not fake.called("chat.postMessage")


async def test_requests_are_acknowledged_before_the_work_is_done(
    slack: Driver, fake: FakeSlack
) -> None:
    """With a slow Web API, a click and a command get their HTTP 200 before the game message is
    edited or the private answer sent: the ack never waits for Slack or the game."""
    message = await lobby(slack, fake)
    fake.latency = 0.3
    click = await slack.click("UBOB", message, message.button("Join"))
    assert click.status == 200 and message.updates == 0
    command = await slack.command("UCID", "balance")
    assert command.status == 200 and not fake.replies(command.key)
    await fake.wait_for(lambda: message.updates == 1 and fake.replies(command.key))


async def test_a_retried_click_is_applied_once(
    slack: Driver, fake: FakeSlack, manager: GameManager
) -> None:
    """Slack redelivers a Roll (same action_ts, X-Slack-Retry-Num: 1): the game moves once,
    and the message is not set back."""
    message = await lobby(slack, fake, "solo")
    before = await version(manager)
    roll = message.button("Roll")
    first = await slack.click("UANN", message, roll, action_ts="1700009999.000001", key="roll")
    await fake.wait_for(lambda: message.updates == 1)
    shown = message.blocks
    again = await slack.click("UANN", message, roll, action_ts="1700009999.000001",
                              key="roll-again", retry=1)  # fmt: skip
    assert first.status == again.status == 200
    await fake.wait_for(lambda: message.updates == 2)  # the retry shows the same view again
    assert await version(manager) == (before or 0) + 1
    assert message.blocks == shown
    assert not [r for r in fake.responses if r.key.startswith("roll")]


async def test_a_retried_start_posts_one_lobby(
    slack: Driver, fake: FakeSlack, redis: Redis
) -> None:
    """A redelivered `/shutbox start` (same trigger id) opens one game with one message."""
    body = slack.command_body("UANN", "start", key="twice", trigger="trigger-1")
    assert (await slack.post(body))[0] == 200
    await fake.wait_for(lambda: fake.game_messages(CHANNEL))
    assert (await slack.post(body, retry=1))[0] == 200
    await slack.say("UBOB", "balance")
    assert len(fake.game_messages(CHANNEL)) == 1
    assert not fake.replies("twice")
