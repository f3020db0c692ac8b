"""The REST routes: login, command registration, interaction answers, channel messages."""

from __future__ import annotations

import asyncio
import time

from aiohttp import web

from tests.e2e.discord import payloads
from tests.e2e.discord.fake_discord.records import _EMPTY, BODY, TOKEN, Sent, error, json_response
from tests.e2e.discord.multipart import Upload
from tests.e2e.discord.payloads import APP_ID, EPHEMERAL, GUILD_ID, LOADING, Json


class Rest:
    """The REST routes: login, command registration, interaction answers, channel messages.

    A part of `FakeDiscord` (server.py), which holds the state these methods use."""

    # -- login and commands ---------------------------------------------------------------

    async def _gateway_info(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        # A different path than `gateway_url`, to show which one the bot really connects to
        url = f"ws://127.0.0.1:{self.port}/gateway-from-api"
        return json_response({"url": url, "shards": 1, "session_start_limit": limit})

    async def _me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {TOKEN}":
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return json_response(payloads.bot_user())

    async def _application(self, request: web.Request) -> web.Response:
        return json_response({
            "id": str(APP_ID), "name": "Shutbox", "icon": None, "description": "",
            "bot_public": True, "bot_require_code_grant": False, "owner": payloads.bot_user(),
            "verify_key": "0" * 64, "flags": 0, "team": None, "interactions_endpoint_url": None,
        })  # fmt: skip

    async def _register(self, request: web.Request) -> web.Response:
        commands = await request.json()
        self.registered[request.match_info.get("guild", "global")] = commands
        stored = [
            {**command, "id": str(payloads.snowflake()), "application_id": str(APP_ID),
             "version": "1", "default_member_permissions": None}
            for command in commands
        ]  # fmt: skip
        return json_response(stored)

    # -- interactions ---------------------------------------------------------------------

    async def _callback(self, request: web.Request) -> web.Response:
        sent = self.sent.get(int(request.match_info["iid"]))
        body, uploads = self._body(request)
        if sent is None or sent.token != request.match_info["token"]:
            return error(404, 10062, "Unknown interaction")
        sent.callbacks.append(body)
        if self.holding_callbacks:  # Discord is slow to take the answer: the bot may die now
            self.held.append(sent)
            await self._notify()
            async with self._changed:
                await self._changed.wait_for(lambda: not self.holding_callbacks)
            if self._drop_held:
                return error(404, 10062, "Unknown interaction")
        if sent.answer is not None:
            return error(400, 40060, "Interaction has already been acknowledged.")
        sent.answer, sent.answered_at = body, time.monotonic()
        shown = self._answer(sent, int(body["type"]), body.get("data") or {}, uploads)
        flags = int(shown["flags"])
        return json_response({
            "interaction": {
                "id": str(sent.id), "type": sent.payload["type"],
                "response_message_id": shown["id"],
                "response_message_loading": bool(flags & LOADING),
                "response_message_ephemeral": bool(flags & EPHEMERAL),
            },
            "resource": {"type": body["type"], "message": shown},
        })  # fmt: skip

    def _answer(self, sent: Sent, kind: int, data: Json, uploads: tuple[Upload, ...]) -> Json:
        """Apply a callback: 4 a new message, 5 a "thinking" one, 6 nothing yet, 7 an edit."""
        flags = int(data.get("flags") or 0)
        if kind == 4:
            shown = self._post(sent.channel_id, data, flags, uploads)
        elif kind == 5:
            shown = self._post(sent.channel_id, {}, LOADING | (flags & EPHEMERAL))
        elif kind == 6 and sent.clicked is not None:
            shown = self.messages[sent.clicked]
        elif kind == 7 and sent.clicked is not None:
            shown = self._edit(sent.clicked, data, uploads)
        else:
            raise web.HTTPBadRequest(text=f"callback type {kind} is not supported here")
        sent.original = int(shown["id"])
        return shown

    async def _by_token(self, request: web.Request) -> Sent:
        for sent in self.sent.values():
            if sent.token == request.match_info["token"]:
                if sent.posting is not None:  # over HTTP: the answer is applied first
                    await asyncio.shield(sent.posting)
                return sent
        raise web.HTTPNotFound(text="Unknown Webhook")

    async def _webhook_message(self, request: web.Request) -> int:
        sent, mid = await self._by_token(request), request.match_info["mid"]
        if mid == "@original":
            if sent.original is None:
                raise web.HTTPNotFound(text="Unknown Message")
            return sent.original
        return int(mid)

    async def _followup(self, request: web.Request) -> web.Response:
        sent, (data, uploads) = await self._by_token(request), self._body(request)
        shown = self._post(sent.channel_id, data, int(data.get("flags") or 0), uploads)
        sent.followups.append(int(shown["id"]))
        return json_response(shown)

    async def _webhook_get(self, request: web.Request) -> web.Response:
        return self._existing(await self._webhook_message(request))

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        mid = await self._webhook_message(request)
        if mid not in self.messages or mid in self.deleted:
            return error(404, 10008, "Unknown Message")
        sent = await self._by_token(request)
        sent.filled = sent.filled or mid == sent.original
        return json_response(self._edit(mid, *self._body(request)))

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        self.deleted.add(await self._webhook_message(request))
        return web.Response(status=204)

    # -- channel messages -----------------------------------------------------------------

    async def _channel_post(self, request: web.Request) -> web.Response:
        data, uploads = self._body(request)
        return json_response(self._post(int(request.match_info["cid"]), data, 0, uploads))

    async def _channel_delete(self, request: web.Request) -> web.Response:
        mid = int(request.match_info["mid"])
        shown = self.messages.get(mid)
        if shown is None or mid in self.deleted or shown["channel_id"] != request.match_info["cid"]:
            return error(404, 10008, "Unknown Message")
        self.deleted.add(mid)
        return web.Response(status=204)

    async def _thread_start(self, request: web.Request) -> web.Response:
        """A public thread started on one of the bot's messages (a tournament's table)."""
        cid, mid = request.match_info["cid"], int(request.match_info["mid"])
        if mid not in self.messages or self.messages[mid]["channel_id"] != cid:
            return error(404, 10008, "Unknown Message")
        if any(thread["message_id"] == mid for thread in self.threads.values()):
            return error(400, 160004, "A thread has already been created for this message")
        data, _ = self._body(request)
        thread_id = payloads.snowflake()
        self.threads[thread_id] = {
            "id": str(thread_id), "type": 11, "guild_id": str(GUILD_ID), "parent_id": cid,
            "name": data["name"], "message_id": mid, "owner_id": str(payloads.bot_user()["id"]),
        }  # fmt: skip
        return json_response(self.threads[thread_id])

    async def _channel_get(self, request: web.Request) -> web.Response:
        return self._existing(int(request.match_info["mid"]))

    async def _channel_edit(self, request: web.Request) -> web.Response:
        mid = int(request.match_info["mid"])
        shown = self.messages.get(mid)
        if shown is None or mid in self.deleted or shown["channel_id"] != request.match_info["cid"]:
            return error(404, 10008, "Unknown Message")
        return json_response(self._edit(mid, *self._body(request)))

    def _existing(self, mid: int) -> web.Response:
        if mid not in self.messages or mid in self.deleted:
            return error(404, 10008, "Unknown Message")
        return json_response(self.messages[mid])

    @staticmethod
    def _body(request: web.Request) -> tuple[Json, tuple[Upload, ...]]:
        """The JSON the bot sent (alone, or as a multipart body's payload_json) and its files."""
        body = request[BODY]
        return dict(body.data or {}), body.uploads

    def _post(
        self, channel_id: int, data: Json, flags: int, uploads: tuple[Upload, ...] = ()
    ) -> Json:
        mid = payloads.snowflake()
        guild = channel_id not in self.dms.values()
        self.messages[mid] = payloads.message(mid, channel_id, data, flags=flags, guild=guild)
        self.messages[mid]["attachments"] = self._attachments([], data, uploads)
        self.order.append(mid)
        return self.messages[mid]

    def _attachments(self, kept: list[Json], data: Json, uploads: tuple[Upload, ...]) -> list[Json]:
        """A message's attachments after a post or an edit, as Discord keeps them: an edit's
        `attachments` list names every one that stays (the old by id, the new by upload index);
        an edit without one keeps the old and adds its uploads."""
        listed = data.get("attachments")
        if listed is not None:
            wanted = {str(entry["id"]) for entry in listed}
            kept = [old for old in kept if old["id"] in wanted]
        described = {str(entry["id"]): entry.get("description") for entry in listed or ()}
        for upload in uploads:
            attachment_id = str(payloads.snowflake())
            self.files[attachment_id] = upload.data
            kept = [*kept, payloads.attachment(attachment_id, upload,
                                               described.get(str(upload.index)))]  # fmt: skip
        return kept

    def _edit(self, mid: int, data: Json, uploads: tuple[Upload, ...] = ()) -> Json:
        shown = self.messages[mid]
        shown["attachments"] = self._attachments(shown["attachments"], data, uploads)
        for key in ("content", "embeds", "components"):
            if key in data:
                shown[key] = data[key] if data[key] is not None else _EMPTY[key]
        shown["flags"] = int(shown["flags"]) & ~LOADING
        shown["edited_timestamp"] = payloads.now_iso()
        return shown
