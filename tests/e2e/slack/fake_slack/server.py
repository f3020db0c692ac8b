"""The fake Slack's state and its web server."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.e2e.slack.fake_slack.reading import Reading
from tests.e2e.slack.fake_slack.records import Call, Fault, Message, Response
from tests.e2e.slack.fake_slack.web_api import WebApi


@dataclass
class FakeSlack(Reading, WebApi):
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)  # bot token -> team id
    closed_channels: set[str] = field(default_factory=set)  # the bot is not a member
    latency: float = 0.0  # seconds every Web API answer takes, to show acks do not wait for it
    held: set[str] = field(default_factory=set)  # methods whose calls wait (see `hold`)
    dropped: set[str] = field(default_factory=set)  # held calls released as failed, unapplied
    limited: set[str] = field(default_factory=set)  # methods answered 429 `ratelimited`
    holding: list[Call] = field(default_factory=list)  # calls waiting, not yet applied
    faults: dict[str, list[Fault]] = field(default_factory=dict)  # per method, in order
    calls: list[Call] = field(default_factory=list)
    messages: dict[str, Message] = field(default_factory=dict)
    public: list[Message] = field(default_factory=list)  # texts and summaries, not games
    responses: list[Response] = field(default_factory=list)
    socket_acks: list[dict[str, Any]] = field(default_factory=list)  # Socket Mode replies
    _sockets: list[web.WebSocketResponse] = field(default_factory=list)
    _server: TestServer | None = None
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    _ts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._api)
        app.router.add_post("/respond/{key}", self._respond)
        app.router.add_get("/socket", self._socket)
        self._server = TestServer(app, host="127.0.0.1")
        await self._server.start_server()

    async def close(self) -> None:
        if self._server is not None:
            await self._server.close()

    @property
    def base(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.port}"

    @property
    def api_url(self) -> str:
        return f"{self.base}/api/"

    @property
    def socket_url(self) -> str:
        assert self._server is not None
        return f"ws://127.0.0.1:{self._server.port}/socket"

    def response_url(self, key: str) -> str:
        return f"{self.base}/respond/{key}"
