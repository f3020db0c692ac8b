"""A fake Slack on 127.0.0.1: the Web API methods the app calls, and the response_url endpoint.

Every call is recorded; posted messages are kept (and edited by chat.update) so a test reads the
game message and its buttons the way a user sees them.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer

TEAM = "T0001"
BOT_USER = "UBOT"
WAIT_SECONDS = 10.0


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    token: str | None


@dataclass
class Message:
    channel: str
    ts: str
    text: str
    blocks: list[dict[str, Any]]
    updates: int = 0
    thread_ts: str = ""  # the thread it was posted in, if any
    deleted: bool = False  # taken down by chat.delete

    @property
    def body(self) -> str:
        """The text of the header and section blocks, as the channel shows it."""
        return "\n".join(
            block["text"]["text"] for block in self.blocks if block["type"] in ("header", "section")
        )

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [e for b in self.blocks if b["type"] == "actions" for e in b["elements"]]

    @property
    def playing(self) -> list[dict[str, Any]]:
        """The buttons that play the game: all but a finished match's Rematch and Review."""
        after_match = ("stb:review:", "stb:rematch:")
        return [b for b in self.buttons if not str(b["action_id"]).startswith(after_match)]

    @property
    def summary(self) -> bool:
        """A public text whose only buttons are its Review (a round or match summary)."""
        headed = any(block["type"] == "header" for block in self.blocks)
        reviews = [str(b["action_id"]).startswith("stb:review:") for b in self.buttons]
        return bool(self.blocks) and not headed and bool(reviews) and all(reviews)

    def button(self, label: str) -> str:
        """The action id of the button with this label."""
        found = [str(b["action_id"]) for b in self.buttons if b["text"]["text"] == label]
        assert found, f"no button {label!r} in {[b['text']['text'] for b in self.buttons]}"
        return found[0]


@dataclass
class Response:
    """One POST to a response_url (a private reply)."""

    key: str
    body: dict[str, Any]

    @property
    def text(self) -> str:
        return str(self.body.get("text", ""))


@dataclass(frozen=True)
class Fault:
    """One answer the fake gives instead of the real one: an HTTP status (429 with its
    Retry-After, 5xx), a Slack error code, a stall before answering, or a dropped connection."""

    status: int = 200
    error: str | None = None
    retry_after: int | None = None
    stall: float = 0.0  # seconds before the call goes on as usual (it still applies)
    reset: bool = False  # the connection closes without an answer; nothing applies

    @classmethod
    def rate_limited(cls, retry_after: int = 1) -> Fault:
        return cls(status=429, error="ratelimited", retry_after=retry_after)


@dataclass
class FakeSlack:
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

    # -- what tests read ------------------------------------------------------------------

    def called(self, method: str) -> list[Call]:
        return [call for call in self.calls if call.method == method]

    def replies(self, key: str) -> list[Response]:
        return [r for r in self.responses if r.key == key]

    def game_messages(self, channel: str) -> list[Message]:
        """Messages with blocks of their own: game messages and leaderboard pages."""
        found = self.messages.values()
        return [m for m in found if m.channel == channel and m.blocks and not m.summary]

    async def wait_for(self, ready: Callable[[], Any], seconds: float = WAIT_SECONDS) -> Any:
        """Wait until `ready()` is truthy (checked after every call the fake receives)."""
        async with asyncio.timeout(seconds), self._changed:
            while not (result := ready()):
                await self._changed.wait()
            return result

    async def reply(self, key: str) -> Response:
        """The first private reply sent to this response_url."""
        found: list[Response] = await self.wait_for(lambda: self.replies(key))
        return found[0]

    def fail(self, method: str, *faults: Fault) -> None:
        """The next calls of `method` ("response_url" for private answers) get `faults`."""
        self.faults.setdefault(method, []).extend(faults)

    async def _faulted(self, method: str, request: web.Request) -> web.Response | None:
        """The injected answer for this call, if one is queued (None: answer as usual)."""
        queued = self.faults.get(method)
        if not queued:
            return None
        fault = queued.pop(0)
        await asyncio.sleep(fault.stall)
        if fault.reset:
            assert request.transport is not None
            request.transport.close()
            return web.Response(status=500)
        if fault.status == 429:
            headers = {"Retry-After": str(fault.retry_after or 1)}
            return web.json_response({"ok": False, "error": "ratelimited"}, status=429,
                                     headers=headers)  # fmt: skip
        if fault.status >= 500:
            return web.Response(status=fault.status, text="upstream trouble")
        if fault.error:
            return web.json_response({"ok": False, "error": fault.error})
        return None  # a stall only

    def hold(self, method: str) -> None:
        """Calls of `method` wait, unapplied, until `release(method)`."""
        self.held.add(method)

    async def release(self, method: str, *, drop: bool = False) -> None:
        """Let held calls go on; with `drop`, they fail and never apply (their caller died)."""
        if drop:
            self.dropped.add(method)
        self.held.discard(method)
        await self._notify()

    async def _released(self, method: str) -> None:
        async with self._changed:
            while method in self.held:
                await self._changed.wait()

    # -- the Web API ----------------------------------------------------------------------

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await _params(request)
        token = request.headers.get("Authorization", "").removeprefix("Bearer ") or None
        self.calls.append(Call(method, params, token or params.get("token")))
        await asyncio.sleep(self.latency)
        if (faulted := await self._faulted(method, request)) is not None:
            await self._notify()
            return faulted
        if method in self.held:  # as when the platform is slow: the caller may die meanwhile
            self.holding.append(self.calls[-1])
            await self._notify()
            await self._released(method)
            if method in self.dropped:
                return web.json_response({"ok": False, "error": "request_timeout"})
        if method in self.limited:
            body = {"ok": False, "error": "ratelimited"}
            return web.json_response(body, status=429, headers={"Retry-After": "30"})
        handler = {
            "auth.test": self._auth_test, "chat.postMessage": self._post,
            "chat.update": self._update, "chat.postEphemeral": self._ephemeral,
            "chat.delete": self._delete,
            "users.info": self._user, "oauth.v2.access": self._oauth,
            "apps.connections.open": self._connections_open, "api.test": lambda *_: {"ok": True},
        }.get(method)  # fmt: skip
        body = handler(params, token) if handler else {"ok": False, "error": "unknown_method"}
        await self._notify()
        return web.json_response(body)

    def _auth_test(self, params: dict[str, Any], token: str | None) -> dict[str, Any]:
        team = self.tokens.get(token or "", TEAM)
        return {"ok": True, "url": "https://test.slack.com/", "team": "Test", "user": "shutbox",
                "team_id": team, "user_id": BOT_USER, "bot_id": "BBOT"}  # fmt: skip

    def _post(self, params: dict[str, Any], token: str | None) -> dict[str, Any]:
        channel = str(params["channel"])
        if channel in self.closed_channels:
            return {"ok": False, "error": "not_in_channel"}
        n = next(self._ts)
        message = Message(channel, f"1700000000.{n:06d}", str(params.get("text", "")),
                          _json_list(params.get("blocks")),
                          thread_ts=str(params.get("thread_ts") or ""))  # fmt: skip
        self.messages[message.ts] = message
        if not message.blocks or message.summary:
            self.public.append(message)
        return {"ok": True, "channel": channel, "ts": message.ts, "message": {"ts": message.ts}}

    def _update(self, params: dict[str, Any], token: str | None) -> dict[str, Any]:
        message = self.messages.get(str(params["ts"]))
        if message is None or message.channel != params["channel"]:
            return {"ok": False, "error": "message_not_found"}
        message.blocks = _json_list(params.get("blocks"))
        message.text = str(params.get("text", ""))
        message.updates += 1
        return {"ok": True, "channel": message.channel, "ts": message.ts}

    def _delete(self, params: dict[str, Any], token: str | None) -> dict[str, Any]:
        message = self.messages.get(str(params["ts"]))
        if message is None or message.deleted or message.channel != params["channel"]:
            return {"ok": False, "error": "message_not_found"}
        message.deleted = True
        return {"ok": True, "channel": message.channel, "ts": message.ts}

    def _ephemeral(self, params: dict[str, Any], token: str | None) -> dict[str, Any]:
        return {"ok": True, "message_ts": f"1700000000.{next(self._ts):06d}"}

    def _user(self, params: dict[str, Any], token: str | None) -> dict[str, Any]:
        user = self.users.get(str(params.get("user")))
        if user is None:
            return {"ok": False, "error": "user_not_found"}
        return {"ok": True, "user": user}

    def _oauth(self, params: dict[str, Any], token: str | None) -> dict[str, Any]:
        if params.get("code") != "good-code":
            return {"ok": False, "error": "invalid_code"}
        return {
            "ok": True, "app_id": "A0001", "access_token": "xoxb-installed", "token_type": "bot",
            "scope": "commands,chat:write,chat:write.public,users:read", "bot_user_id": BOT_USER,
            "team": {"id": "T0002", "name": "Installed"}, "enterprise": None,
            "authed_user": {"id": "UANN"}, "is_enterprise_install": False,
        }  # fmt: skip

    def _connections_open(self, params: dict[str, Any], token: str | None) -> dict[str, Any]:
        return {"ok": True, "url": self.socket_url}

    async def envelope(self, envelope_id: str, kind: str, payload: dict[str, Any]) -> None:
        """Push one Socket Mode envelope to the connected app."""
        socket = await self.wait_for(lambda: self._sockets and self._sockets[-1])
        await socket.send_json({"envelope_id": envelope_id, "type": kind, "payload": payload,
                                "accepts_response_payload": kind != "events_api"})  # fmt: skip

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        """Socket Mode: say hello, then record what the app answers to each envelope."""
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        await socket.send_json({"type": "hello", "num_connections": 1,
                                "connection_info": {"app_id": "A0001"}})  # fmt: skip
        self._sockets.append(socket)
        await self._notify()
        async for frame in socket:
            if frame.type == aiohttp.WSMsgType.TEXT:
                self.socket_acks.append(json.loads(frame.data))
                await self._notify()
        return socket

    async def _respond(self, request: web.Request) -> web.Response:
        if (faulted := await self._faulted("response_url", request)) is not None:
            return faulted
        self.responses.append(Response(request.match_info["key"], await request.json()))
        await self._notify()
        return web.Response(text="ok")

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()


async def _params(request: web.Request) -> dict[str, Any]:
    """Query, form or JSON parameters, as slack_sdk sends them."""
    params: dict[str, Any] = dict(request.query)
    if request.content_type == "application/json":
        params.update(await request.json())
    elif request.can_read_body:
        params.update(await request.post())
    return params


def _json_list(value: Any) -> list[dict[str, Any]]:
    if not value:
        return []
    return list(json.loads(value) if isinstance(value, str) else value)
