"""A fake Discord on 127.0.0.1: the REST routes and the gateway websocket discord.py 2.7 uses,
or (`mode="http"`) interactions POSTed, signed, to the bot's Interactions Endpoint URL.

It keeps the messages the bot posts and edits, records every request (command registrations,
interaction callbacks, follow-ups, channel edits), and lets a test deliver INTERACTION_CREATE
events from any user, as Discord would, then wait for the bot's answers.

Traps it handles on purpose: JSON bodies carry exactly `Content-Type: application/json` (discord.py
parses nothing else); gateway frames are plain text; READY carries `resume_gateway_url`; the
interaction callback answers with `interaction.response_message_id` and `resource.message`; an
interaction can be answered once (the second callback gets Discord's 40060 error).
"""

from __future__ import annotations

from tests.e2e.discord.fake_discord.messages import AFTER_MATCH, buttons, playing, text_of
from tests.e2e.discord.fake_discord.records import TOKEN, Connection, Fault, Request, Sent
from tests.e2e.discord.fake_discord.server import FakeDiscord
from tests.e2e.discord.payloads import EPHEMERAL, Json

__all__ = ["AFTER_MATCH", "EPHEMERAL", "TOKEN", "Connection", "FakeDiscord", "Fault", "Json",
           "Request", "Sent", "buttons", "playing", "text_of"]
