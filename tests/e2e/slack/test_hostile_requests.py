"""Requests no Slack would send get a 4xx and one warning line: never a 500 or a traceback."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from urllib.parse import urlencode

import pytest
from redis.asyncio import Redis

from tests.e2e.slack.driver import SECRET, Driver
from tests.e2e.slack.fake_slack import FakeSlack

FORM = "application/x-www-form-urlencoded"


def signed(body: bytes, content_type: str = FORM, stamp: str | None = None) -> dict[str, str]:
    stamp = stamp or str(int(time.time()))
    base = b"v0:" + stamp.encode() + b":" + body
    signature = "v0=" + hmac.new(SECRET.encode(), base, hashlib.sha256).hexdigest()
    return {"Content-Type": content_type, "X-Slack-Request-Timestamp": stamp,
            "X-Slack-Signature": signature}  # fmt: skip


def payload(value: object) -> bytes:
    return urlencode({"payload": json.dumps(value)}).encode()


ACTIONS_NULL = {"type": "block_actions", "user": {"id": "UANN"}, "team": {"id": "T1"},
                "actions": None}  # fmt: skip
SIGNED_BODIES = {
    "payload= of broken JSON": (b"payload=%7Bnot+json", FORM),
    "payload= of a JSON list": (payload([1, 2, 3]), FORM),
    "payload= of a JSON string": (payload("block_actions"), FORM),
    "actions: null": (payload(ACTIONS_NULL), FORM),
    "actions of strings": (payload({**ACTIONS_NULL, "actions": ["stb:roll"]}), FORM),
    "an action without action_id": (payload({**ACTIONS_NULL, "actions": [{}]}), FORM),
    "user as a string": (payload({**ACTIONS_NULL, "user": "UANN", "actions": [{}]}), FORM),
    "binary bytes": (bytes(range(256)), FORM),
    "form junk": (b"%%%&&==&a=%ZZ&command", FORM),
    "a JSON list as application/json": (b"[1, 2]", "application/json"),
    "broken JSON as application/json": (b'{"type": "event_callback", ', "application/json"),
    "a command without user": (b"command=%2Fshutbox&text=start&channel_id=C1", FORM),
}


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


async def assert_nothing_changed(fake: FakeSlack, redis: Redis) -> None:
    assert not fake.called("chat.postMessage") and not fake.responses
    assert not await redis.keys("stb:*")


async def test_a_timestamp_that_is_not_a_number_gets_401(
    slack: Driver, fake: FakeSlack, redis: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """`X-Slack-Request-Timestamp: soon`, unsigned: 401, one warning line, no traceback."""
    body = slack.command_body("UANN", "start", key="soon")
    headers = {"Content-Type": FORM, "X-Slack-Request-Timestamp": "soon",
               "X-Slack-Signature": "v0=00"}  # fmt: skip
    with caplog.at_level(logging.WARNING):
        status, _ = await slack.post(body, headers=headers)
    assert status == 401
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [
        "slack request refused with 401: the request timestamp is not a number (from 127.0.0.1)"
    ]
    no_tracebacks(caplog)
    await assert_nothing_changed(fake, redis)


@pytest.mark.parametrize("stamp", ["²", "1e9", "-1", "9" * 5000, ""])
async def test_odd_timestamps_get_401(
    slack: Driver, fake: FakeSlack, redis: Redis, caplog: pytest.LogCaptureFixture, stamp: str
) -> None:
    """Unicode digits, exponents, signs, 5,000 digits or nothing: 401 and no traceback."""
    body = slack.command_body("UANN", "start", key="odd").encode()
    status, _ = await slack.post(body.decode(), headers=signed(body, stamp=stamp or None)
                                 | {"X-Slack-Request-Timestamp": stamp})  # fmt: skip
    assert status == 401
    no_tracebacks(caplog)
    await assert_nothing_changed(fake, redis)


@pytest.mark.parametrize("name", list(SIGNED_BODIES))
async def test_signed_bodies_that_are_not_payloads_get_400(
    slack: Driver, fake: FakeSlack, redis: Redis, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    """Correctly signed, but not a Slack payload: 400 with one warning line, nothing changes."""
    body, content_type = SIGNED_BODIES[name]
    with caplog.at_level(logging.WARNING):
        async with slack.session.post(slack.url, data=body,
                                      headers=signed(body, content_type)) as response:  # fmt: skip
            status = response.status
    assert status == 400, name
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "\n" not in warnings[0].getMessage()
    assert warnings[0].getMessage().startswith("slack request refused with 400: ")
    no_tracebacks(caplog)
    await assert_nothing_changed(fake, redis)


async def test_the_bot_keeps_serving_after_hostile_requests(slack: Driver, fake: FakeSlack) -> None:
    """After every hostile request above, a real command is still answered."""
    for body, content_type in SIGNED_BODIES.values():
        async with slack.session.post(slack.url, data=body, headers=signed(body, content_type)):
            pass
    assert "chips" in await slack.say("UANN", "balance")


async def test_an_oversized_body_still_gets_413(
    slack: Driver, fake: FakeSlack, redis: Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """The guard reads the body within aiohttp's size limit: 2 MB, signed, is refused with 413."""
    body = b"text=" + b"x" * (2 * 1024 * 1024)
    async with slack.session.post(slack.url, data=body, headers=signed(body)) as response:
        assert response.status == 413
    no_tracebacks(caplog)
    await assert_nothing_changed(fake, redis)
