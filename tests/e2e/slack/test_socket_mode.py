"""Socket Mode: the same app over Slack's WebSocket, without a public URL (SPEC 8)."""

from __future__ import annotations

import json
import logging
from urllib.parse import parse_qsl

import pytest

from adapters.slack.app import SlackBot
from adapters.slack.server import serving_socket_mode
from tests.e2e.slack.driver import CHANNEL, Driver
from tests.e2e.slack.fake_slack import FakeSlack, Message


async def test_a_solo_game_over_socket_mode(bot: SlackBot, fake: FakeSlack, slack: Driver) -> None:
    """The app opens a connection with the app token, acks each envelope, and plays."""
    async with serving_socket_mode(bot, "xapp-test"):
        command = dict(parse_qsl(slack.command_body("UANN", "solo", key="socket")))
        await fake.envelope("env-1", "slash_commands", command)
        await fake.wait_for(lambda: any(a.get("envelope_id") == "env-1" for a in fake.socket_acks))
        found: list[Message] = await fake.wait_for(lambda: fake.game_messages(CHANNEL))
        game = found[0]

        click = json.loads(dict(parse_qsl(
            slack.click_body("UANN", game, game.button("Roll"), key="socket-click",
                             action_ts="1700002000.000001")
        ))["payload"])  # fmt: skip
        await fake.envelope("env-2", "interactive", click)
        await fake.wait_for(lambda: game.updates == 1)
    assert fake.called("apps.connections.open")
    assert "rolled" in game.body


async def test_an_envelope_with_a_broken_payload_is_acked_quietly(
    bot: SlackBot, fake: FakeSlack, slack: Driver, caplog: pytest.LogCaptureFixture
) -> None:
    """Over Socket Mode there is no HTTP guard: `"actions": null` is acknowledged, logged in one
    warning line without a traceback, and the next envelope still plays."""
    broken = {"type": "block_actions", "user": {"id": "UANN"}, "team": {"id": "T0001"},
              "actions": None}  # fmt: skip
    async with serving_socket_mode(bot, "xapp-test"):
        with caplog.at_level(logging.WARNING):
            await fake.envelope("env-bad", "interactive", broken)
            await fake.wait_for(
                lambda: any(a.get("envelope_id") == "env-bad" for a in fake.socket_acks)
            )
        command = dict(parse_qsl(slack.command_body("UANN", "solo", key="after")))
        await fake.envelope("env-ok", "slash_commands", command)
        await fake.wait_for(lambda: fake.game_messages(CHANNEL))
        # What the app logged while serving (closing the socket at the end may log bolt's own
        # complaint about a write that raced the shutdown: not the payload's doing).
        records = list(caplog.records)
    # Only the app's own lines: a loaded machine may add Socket Mode's reconnect warnings.
    refused = [r.getMessage() for r in records
               if r.levelno >= logging.WARNING and r.name.startswith("adapters.")]  # fmt: skip
    assert refused == ["slack payload refused: `actions` is not a list of actions"]
    assert not [r for r in records if r.exc_info]
