"""Slack's side of the conversation: signed slash commands and button clicks sent to the app."""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import aiohttp
from slack_sdk.signature import SignatureVerifier

from tests.e2e.slack.fake_slack import TEAM, FakeSlack, Message

SECRET = "test-signing-secret"
CHANNEL = "C0001"
NAMES = {"UANN": "ann", "UBOB": "bob", "UCID": "cid", "UDAN": "dan"}


@dataclass(frozen=True)
class Sent:
    """One request as Slack saw it: the HTTP status, how long the ack took, its response_url key."""

    status: int
    seconds: float
    key: str


def signed_headers(
    body: str, secret: str = SECRET, timestamp: int | None = None, retry: int | None = None
) -> dict[str, str]:
    """The headers Slack sends: the request timestamp and the HMAC signature over both."""
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    signature = SignatureVerifier(secret).generate_signature(timestamp=stamp, body=body)
    assert signature is not None
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": signature,
    }
    if retry is not None:
        headers["X-Slack-Retry-Num"] = str(retry)
        headers["X-Slack-Retry-Reason"] = "http_timeout"
    return headers


@dataclass
class Driver:
    session: aiohttp.ClientSession
    url: str  # the app's /slack/events
    fake: FakeSlack
    team: str = TEAM
    channel: str = CHANNEL
    secret: str = SECRET
    acks: list[float] = field(default_factory=list)
    _numbers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def post(
        self, body: str, *, headers: dict[str, str] | None = None, retry: int | None = None
    ) -> tuple[int, float]:
        """Send one request; returns the status and the seconds until the app answered."""
        started = time.perf_counter()
        sent = headers or signed_headers(body, self.secret, retry=retry)
        async with self.session.post(self.url, data=body, headers=sent) as response:
            await response.read()
            seconds = time.perf_counter() - started
        self.acks.append(seconds)
        return response.status, seconds

    def command_body(self, user: str, text: str, *, key: str, channel: str | None = None,
                     trigger: str | None = None) -> str:  # fmt: skip
        return urlencode({
            "token": "legacy", "team_id": self.team, "team_domain": "test",
            "channel_id": channel or self.channel, "channel_name": "games", "user_id": user,
            "user_name": NAMES.get(user, user.lower()), "command": "/shutbox", "text": text,
            "api_app_id": "A0001", "is_enterprise_install": "false",
            "response_url": self.fake.response_url(key), "trigger_id": trigger or f"trig-{key}",
        })  # fmt: skip

    async def command(
        self, user: str, text: str, *, channel: str | None = None, retry: int | None = None,
        key: str | None = None,
    ) -> Sent:  # fmt: skip
        """`/shutbox <text>` typed by `user`."""
        key = key or f"cmd{next(self._numbers)}"
        body = self.command_body(user, text, key=key, channel=channel)
        status, seconds = await self.post(body, retry=retry)
        return Sent(status, seconds, key)

    async def say(self, user: str, text: str, *, channel: str | None = None) -> str:
        """A command whose answer is private: the ephemeral reply's text."""
        sent = await self.command(user, text, channel=channel)
        assert sent.status == 200, sent
        response = await self.fake.reply(sent.key)
        assert response.body.get("response_type") == "ephemeral", response.body
        return response.text

    def click_body(self, user: str, message: Message, action_id: str, *, key: str,
                   action_ts: str, ephemeral: bool = False) -> str:  # fmt: skip
        payload: dict[str, Any] = {
            "type": "block_actions", "api_app_id": "A0001", "token": "legacy",
            "user": {"id": user, "username": NAMES.get(user, user), "name": NAMES.get(user, user),
                     "team_id": self.team},
            "team": {"id": self.team, "domain": "test"}, "enterprise": None,
            "is_enterprise_install": False,
            "container": {"type": "message", "message_ts": message.ts,
                          "channel_id": message.channel, "is_ephemeral": ephemeral},
            "channel": {"id": message.channel, "name": "games"},
            "message": {"type": "message", "ts": message.ts, "blocks": message.blocks,
                        **({"thread_ts": message.thread_ts} if message.thread_ts else {})},
            "trigger_id": f"trig-{key}", "response_url": self.fake.response_url(key),
            "actions": [{"type": "button", "action_id": action_id, "block_id": "b",
                         "text": {"type": "plain_text", "text": "x"}, "action_ts": action_ts}],
        }  # fmt: skip
        return urlencode({"payload": json.dumps(payload)})

    async def click(
        self, user: str, message: Message, action_id: str, *, retry: int | None = None,
        key: str | None = None, action_ts: str | None = None, ephemeral: bool = False,
    ) -> Sent:  # fmt: skip
        """`user` presses the button `action_id` on `message` (an ephemeral one if said)."""
        number = next(self._numbers)
        key = key or f"click{number}"
        body = self.click_body(user, message, action_id, key=key, ephemeral=ephemeral,
                               action_ts=action_ts or f"1700001000.{number:06d}")  # fmt: skip
        status, seconds = await self.post(body, retry=retry)
        return Sent(status, seconds, key)

    async def press(self, user: str, message: Message, action_id: str) -> None:
        """A click that changes the game message: wait until the message has been edited."""
        before = message.updates
        sent = await self.click(user, message, action_id)
        assert sent.status == 200, sent
        await self.fake.wait_for(lambda: message.updates > before or self.fake.replies(sent.key))
        assert not self.fake.replies(sent.key), self.fake.replies(sent.key)[0].text
