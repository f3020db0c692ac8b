"""The Web API methods the app calls, Socket Mode and the response_url endpoint."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
from aiohttp import web

from tests.e2e.slack.fake_slack.records import BOT_USER, TEAM, Call, Message, Response


class WebApi:
    """The Web API methods the app calls, Socket Mode and the response_url endpoint.

    A part of `FakeSlack` (server.py), which holds the state these methods use."""

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
