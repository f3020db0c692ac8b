"""A fake Slack on 127.0.0.1: the Web API methods the app calls, and the response_url endpoint.

Every call is recorded; posted messages are kept (and edited by chat.update) so a test reads the
game message and its buttons the way a user sees them.
"""

from __future__ import annotations

from tests.e2e.slack.fake_slack.records import BOT_USER, TEAM, Call, Fault, Message, Response
from tests.e2e.slack.fake_slack.server import FakeSlack

__all__ = ["BOT_USER", "TEAM", "Call", "FakeSlack", "Fault", "Message", "Response"]
