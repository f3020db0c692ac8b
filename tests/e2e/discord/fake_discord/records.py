"""What the fake Discord records and answers with: its requests, the interactions it
delivered, its gateway connections and the faults a test queues."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.e2e.discord.multipart import Body, Upload
from tests.e2e.discord.payloads import EPHEMERAL, Json
from tests.e2e.discord.signed import Answer

TOKEN = "fake-bot-token"
HEARTBEAT_MS = 41_250
_EMPTY: dict[str, object] = {"content": "", "embeds": [], "components": []}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
BODY = web.RequestKey("body", Body)  # each request's body, read once by the recording middleware


def json_response(data: object, status: int = 200) -> web.Response:
    """JSON with exactly `application/json` (aiohttp's helper adds a charset discord.py rejects)."""
    body = json.dumps(data).encode()
    return web.Response(status=status, body=body, headers={"Content-Type": "application/json"})


def error(status: int, code: int, message: str) -> web.Response:
    return json_response({"code": code, "message": message}, status)


@dataclass(slots=True)
class Request:
    """One REST request the bot made."""

    method: str
    path: str
    body: Any
    at: float
    uploads: tuple[Upload, ...] = ()  # the files of a multipart body


@dataclass(slots=True)
class Sent:
    """One interaction delivered to the bot, and how the bot answered it."""

    id: int
    token: str
    payload: Json
    channel_id: int
    clicked: int | None  # the message whose button was pressed
    sent_at: float
    callbacks: list[Json] = field(default_factory=list)  # every callback tried, refused ones too
    answer: Json | None = None  # the accepted callback
    answered_at: float | None = None
    original: int | None = None  # the message the answer created or edited
    followups: list[int] = field(default_factory=list)
    shard: int = 0  # the shard whose connection delivered it
    posting: asyncio.Task[None] | None = None  # over HTTP: the POST, until its answer is applied
    replies: list[Answer] = field(default_factory=list)  # over HTTP: every response to a POST
    filled: bool = False  # a deferred answer's message was then written by the webhook

    @property
    def answer_type(self) -> int | None:
        return None if self.answer is None else int(self.answer["type"])

    @property
    def posted(self) -> bool:
        """A new message: answered with one (4), or deferred (5) and then written by the
        webhook, as the HTTP mode posts a game message to learn its id."""
        return self.answer_type == 4 or (self.answer_type == 5 and self.filled)

    @property
    def data(self) -> Json:
        return {} if self.answer is None else dict(self.answer.get("data") or {})

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def answer_ms(self) -> float | None:
        if self.answered_at is None:
            return None
        return (self.answered_at - self.sent_at) * 1000


@dataclass(slots=True)
class Connection:
    socket: web.WebSocketResponse
    shard: tuple[int, int] | None = None  # (id, count) once identified


@dataclass(frozen=True)
class Fault:
    """One answer the fake gives instead of the real one: a 429 with its retry_after, a 5xx,
    or a Discord error code (10062: the interaction expired)."""

    status: int
    code: int = 0
    retry_after: float = 0.0

    def response(self) -> web.Response:
        if self.status == 429:
            body = {"message": "You are being rate limited.", "retry_after": self.retry_after,
                    "global": False}  # fmt: skip
            # Discord (behind Google's front end) sends Via; without it discord.py takes a
            # 429 for a Cloudflare ban and does not retry
            headers = {"Retry-After": str(self.retry_after), "X-RateLimit-Scope": "user",
                       "Via": "1.1 google"}  # fmt: skip
            response = json_response(body, status=429)
            response.headers.update(headers)
            return response
        if self.code:
            return error(self.status, self.code, "Unknown interaction")
        return web.Response(status=self.status, text="upstream trouble")


def fault_kind(request: web.Request) -> str:
    """Which call a request is, as `FakeDiscord.fail` names it."""
    path = request.path
    if path.endswith("/callback"):
        return "callback"
    if "/channels/" in path and "/messages" in path:
        return "channel_edit" if request.method == "PATCH" else "channel_post"
    if "/webhooks/" in path:
        return "followup"
    return path
