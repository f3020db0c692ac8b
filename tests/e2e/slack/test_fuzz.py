"""Fuzzing the Slack endpoint: whatever arrives, no 5xx, no traceback, no change in Redis.

Slash-command texts come from Bob (not an admin), so `config` and `grant` are refused too;
texts that are valid commands which change state by design (`start`, `solo`, `daily`) are left
out. Payloads are signed (the signature is not what is being tested) and may be anything.
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from redis.asyncio import Redis

from adapters.slack.commands import parse
from core.game.errors import ShutboxError
from core.service.api.commands import Challenge, Daily, Season, Solo, Start
from core.service.pipeline.subcommands import NAMES
from tests.e2e.slack.driver import Driver
from tests.e2e.slack.fake_slack import FakeSlack
from tests.e2e.slack.test_hostile_requests import FORM, signed
from tests.e2e.snapshots import snapshot

FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
DIGITS = st.sampled_from(["0", "7", "²", "٣", "９", "-1", "+5", "9" * 30, "1e3", "", " "])
WORD = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["preset", "tiles", "timer", "rounds", "stakes", "format", "close", "fair"]),
)
PAIR = st.builds(lambda k, v: f"{k}={v}", WORD, st.one_of(WORD, DIGITS))
MENTION = st.sampled_from(["<@UANN>", "<@UBOB|bob>", "<@U", "<@>", "@ann", "<#C1>"])
TEXT = st.builds(
    lambda name, rest: " ".join([name, *rest]),
    st.one_of(st.sampled_from(NAMES), st.text(max_size=10)),
    st.lists(st.one_of(PAIR, WORD, DIGITS, MENTION), max_size=4),
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)


def changes_state(text: str) -> bool:
    """A well-formed command that changes state by design, whoever types it."""
    try:
        command = parse(text)
    except ShutboxError:
        return False
    # `season` opens Season 1 the first time anyone asks (its start date is kept);
    # `challenge` starts the caller's attempt of the day
    return isinstance(command, Start | Solo | Season | Daily | Challenge)


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


@FUZZ
@given(text=TEXT)
async def test_any_slash_command_text_is_answered_and_changes_nothing(
    slack: Driver, fake: FakeSlack, redis: Redis, caplog: pytest.LogCaptureFixture, text: str
) -> None:
    """Random subcommands, options, Unicode digits, huge numbers and broken mentions."""
    assume(not changes_state(text))
    before, posted = await snapshot(redis), len(fake.called("chat.postMessage"))
    caplog.clear()
    sent = await slack.command("UBOB", text)
    assert sent.status < 500
    await fake.wait_for(lambda: fake.replies(sent.key)
                        or len(fake.called("chat.postMessage")) > posted)  # fmt: skip
    assert await snapshot(redis) == before
    no_tracebacks(caplog)


def click_payload(action_id: str, extra: dict[str, Any], response_url: str) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "type": "block_actions", "user": {"id": "UBOB", "team_id": "T0001"},
        "team": {"id": "T0001"}, "channel": {"id": "C0001"},
        "container": {"type": "message", "message_ts": "1.2", "channel_id": "C0001"},
        "response_url": response_url, "actions": [{"action_id": action_id, "action_ts": "1.3"}],
    }  # fmt: skip
    payload.update(extra)
    return payload


def _clicked(payload: dict[str, Any]) -> str:
    """The action id a listener will see, if the payload still carries one."""
    actions = payload.get("actions")
    first = actions[0] if isinstance(actions, list) and actions else None
    return str(first.get("action_id", "")) if isinstance(first, dict) else ""


@FUZZ
@given(
    action_id=st.one_of(
        st.text(max_size=30),
        st.builds(
            lambda v, g, n, a: f"stb:{v}:{g}:{n}:{a}",
            st.sampled_from(["roll", "choose", "join", "page", "x"]),
            st.text(max_size=6),
            DIGITS,
            DIGITS,
        ),
    ),
    extra=st.dictionaries(
        st.sampled_from(
            ["user", "team", "channel", "container", "actions", "message", "type", "enterprise"]
        ),
        JSON,
        max_size=2,
    ),
    wrap=st.sampled_from(["form", "json", "raw"]),
)
async def test_any_signed_payload_gets_a_4xx_or_an_ack_and_changes_nothing(
    slack: Driver, fake: FakeSlack, redis: Redis, caplog: pytest.LogCaptureFixture,
    action_id: str, extra: dict[str, Any], wrap: str,
) -> None:  # fmt: skip
    """Block actions with forged ids and fields of any JSON type, as a form, JSON or junk."""
    payload = click_payload(action_id, extra, fake.response_url("fuzz"))
    body = {
        "form": urlencode({"payload": json.dumps(payload)}),
        "json": json.dumps(payload),
        "raw": json.dumps(payload)[: len(action_id) + 40],
    }[wrap].encode()
    kind = "application/json" if wrap == "json" else FORM
    before, responded = await snapshot(redis), len(fake.replies("fuzz"))
    caplog.clear()
    async with slack.session.post(slack.url, data=body, headers=signed(body, kind)) as response:
        status = response.status
    assert status < 500
    if status == 200 and _clicked(payload).startswith("stb:"):
        await fake.wait_for(lambda: len(fake.replies("fuzz")) > responded)
    assert await snapshot(redis) == before
    no_tracebacks(caplog)
