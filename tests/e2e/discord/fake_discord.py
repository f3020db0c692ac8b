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

import asyncio
import copy
import itertools
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.e2e.discord import payloads
from tests.e2e.discord.fake_members import GuildMembers
from tests.e2e.discord.multipart import Body, Upload, read_body
from tests.e2e.discord.payloads import APP_ID, CHANNEL_ID, EPHEMERAL, GUILD_ID, LOADING, Json, User
from tests.e2e.discord.signed import Answer, Signer, post_signed, shape_problems

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


class FakeDiscord:
    """`async with FakeDiscord() as fake:` serves until the block ends."""

    def __init__(self, mode: str = "gateway") -> None:
        self.mode = mode  # "gateway" or "http": how interactions reach the bot
        self.signer = Signer()  # the application's key pair (the bot gets its public half)
        self.endpoint = ""  # over HTTP: the bot's Interactions Endpoint URL
        self.problems: list[str] = []  # over HTTP: answers of a shape Discord does not take
        self.messages: dict[int, Json] = {}  # every message the bot posted, as it stands now
        self.threads: dict[int, Json] = {}  # every thread the bot started, by its channel id
        self.order: list[int] = []  # message ids in the order they were posted
        self.deleted: set[int] = set()
        self.requests: list[Request] = []
        self.registered: dict[str, list[Json]] = {}  # "global" or a guild id -> last PUT payload
        self.sent: dict[int, Sent] = {}
        self.connections: list[Connection] = []
        self.dms: dict[int, int] = {}  # user id -> DM channel id
        self.files: dict[str, bytes] = {}  # attachment id -> the file uploaded
        self.gateway_paths: list[str] = []  # the path of every gateway connection
        self._seq = itertools.count(1)
        self._sessions = itertools.count(1)
        self.holding_callbacks = False  # interaction answers wait, unapplied (see `hold`)
        self.held: list[Sent] = []  # interactions whose answer is waiting
        self.faults: dict[str, list[Fault]] = {}  # see `fail`
        self.members = GuildMembers()  # who has left the guild (tests/e2e/discord/fake_members.py)
        self._drop_held = False
        self._changed = asyncio.Condition()
        self._last_request = time.monotonic()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- serving --------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        self._runner = web.AppRunner(self._app())
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def __aexit__(self, *exc: object) -> None:
        for connection in list(self.connections):
            await connection.socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def _app(self) -> web.Application:
        app = web.Application(middlewares=[self._record])
        api = "/api/v10"
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self._gateway_socket),
            ("GET", "/gateway-from-api", self._gateway_socket),
            ("GET", f"{api}/gateway", self._gateway_info),
            ("GET", f"{api}/gateway/bot", self._gateway_info),
            ("GET", f"{api}/users/@me", self._me),
            ("GET", f"{api}/oauth2/applications/@me", self._application),
            ("GET", f"{api}/applications/@me", self._application),
            ("PUT", f"{api}/applications/{{app}}/commands", self._register),
            ("PUT", f"{api}/applications/{{app}}/guilds/{{guild}}/commands", self._register),
            ("POST", f"{api}/interactions/{{iid}}/{{token}}/callback", self._callback),
            ("POST", f"{api}/webhooks/{{app}}/{{token}}", self._followup),
            ("GET", f"{api}/webhooks/{{app}}/{{token}}/messages/{{mid}}", self._webhook_get),
            ("PATCH", f"{api}/webhooks/{{app}}/{{token}}/messages/{{mid}}", self._webhook_edit),
            ("DELETE", f"{api}/webhooks/{{app}}/{{token}}/messages/{{mid}}", self._webhook_delete),
            ("POST", f"{api}/channels/{{cid}}/messages", self._channel_post),
            ("GET", f"{api}/channels/{{cid}}/messages/{{mid}}", self._channel_get),
            ("PATCH", f"{api}/channels/{{cid}}/messages/{{mid}}", self._channel_edit),
            ("POST", f"{api}/channels/{{cid}}/messages/{{mid}}/threads", self._thread_start),
            ("DELETE", f"{api}/channels/{{cid}}/messages/{{mid}}", self._channel_delete),
            ("GET", f"{api}/guilds/{{guild}}/members/{{user}}", self.members.member),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, path, handler)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        return app

    @web.middleware
    async def _record(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith("/gateway"):
            body = request[BODY] = await read_body(request)
            self.requests.append(
                Request(request.method, request.path, body.data, time.monotonic(), body.uploads)
            )
        queued = self.faults.get(fault_kind(request))
        try:
            if queued:
                return queued.pop(0).response()
            return await handler(request)
        finally:
            self._last_request = time.monotonic()
            await self._notify()

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _unknown(self, request: web.Request) -> web.Response:
        return error(404, 0, f"404: Not Found ({request.method} {request.path})")

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

    # -- the gateway ----------------------------------------------------------------------

    async def _gateway_socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self.gateway_paths.append(request.path)
        connection = Connection(socket)
        self.connections.append(connection)
        await self._send(connection, {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}})
        try:
            async for frame in socket:
                if frame.type is WSMsgType.TEXT:
                    await self._gateway_frame(connection, json.loads(frame.data))
        finally:
            self.connections.remove(connection)
            await self._notify()
        return socket

    async def _gateway_frame(self, connection: Connection, frame: Json) -> None:
        op, data = frame.get("op"), frame.get("d") or {}
        if op == 1:
            await self._send(connection, {"op": 11})
        elif op == 2:
            shard_id, count = data.get("shard") or (0, 1)
            connection.shard = (int(shard_id), int(count))
            await self._dispatch_to(connection, "READY", self._ready(connection.shard))
            await self._notify()
        elif op == 6:
            await self._dispatch_to(connection, "RESUMED", {})

    def _ready(self, shard: tuple[int, int]) -> Json:
        return {
            "v": 10, "user": payloads.bot_user(), "guilds": [], "private_channels": [],
            "session_id": f"session-{next(self._sessions)}", "resume_gateway_url": self.gateway_url,
            "shard": list(shard), "application": {"id": str(APP_ID), "flags": 0},
        }  # fmt: skip

    async def _send(self, connection: Connection, frame: Json) -> None:
        """Frames go out as text: no zlib stream, whatever the client asked for."""
        frame = {"s": None, "t": None, **frame}
        await connection.socket.send_str(json.dumps(frame))

    async def _dispatch_to(self, connection: Connection, event: str, data: Json) -> None:
        await self._send(connection, {"op": 0, "t": event, "s": next(self._seq), "d": data})

    def _shard_for(self, guild: bool) -> Connection:
        """The connection of the shard that owns the guild (DMs go to shard 0)."""
        ready = [c for c in self.connections if c.shard is not None and not c.socket.closed]
        if not ready:
            raise AssertionError("no bot is connected to the fake gateway")
        count = ready[0].shard[1] if ready[0].shard else 1
        wanted = (GUILD_ID >> 22) % count if guild else 0
        return next((c for c in ready if c.shard and c.shard[0] == wanted), ready[0])

    # -- what tests do --------------------------------------------------------------------

    def fail(self, kind: str, *faults: Fault) -> None:
        """The next `kind` calls ("callback", "channel_edit", "channel_post", "followup") get
        `faults` instead of their answer."""
        self.faults.setdefault(kind, []).extend(faults)

    def hold(self) -> None:
        """Interaction answers wait, unapplied, until `release`."""
        self.holding_callbacks, self._drop_held = True, False

    async def release(self, *, drop: bool = False) -> None:
        """Let held answers go on; with `drop` they fail and never apply (the bot died)."""
        self.holding_callbacks, self._drop_held = False, drop
        if drop:  # those interactions expire unanswered: nothing waits for them any more
            for sent in self.held:
                self.sent.pop(sent.id, None)
        await self._notify()

    async def until(self, check: Callable[[], bool], within: float = 5.0) -> None:
        """Wait until `check()` holds after some request or gateway event."""
        async with asyncio.timeout(within), self._changed:
            await self._changed.wait_for(check)

    async def wait_ready(self, shards: int = 1, within: float = 10.0) -> None:
        """Wait until `shards` gateway connections in all have identified (over HTTP: until
        the endpoint answers Discord's PING, as when its URL is saved in the portal)."""
        if self.mode == "http":
            await asyncio.wait_for(self._pinged(), within)
            return
        await self.until(lambda: self.identified() >= shards, within)

    async def ping(self) -> Answer:
        """Discord's PING, signed, to the bot's endpoint."""
        return await post_signed(self.endpoint, self.signer, payloads.ping())

    async def _pinged(self) -> None:
        while True:
            try:
                if (await self.ping()).body == {"type": 1}:
                    return
            except OSError:  # not listening yet
                pass
            await asyncio.sleep(0.1)

    def outbound(self, since: int = 0) -> list[Request]:
        """The REST requests the bot made since `since` (an index into `requests`)."""
        return self.requests[since:]

    def identified(self) -> int:
        """How many gateway connections have identified and are still open."""
        return sum(1 for c in self.connections if c.shard is not None and not c.socket.closed)

    async def settle(self, quiet: float = 0.05, within: float = 5.0) -> None:
        """Wait until every interaction is answered and the bot has made no request for a while."""
        await self.until(lambda: all(s.answer is not None for s in self.sent.values()), within)
        deadline = time.monotonic() + within
        while time.monotonic() - self._last_request < quiet:
            if time.monotonic() > deadline:
                raise TimeoutError("the bot kept making requests")
            await asyncio.sleep(quiet / 2)

    def dm_channel(self, user: User) -> int:
        return self.dms.setdefault(user.id, payloads.snowflake())

    def _channel(self, user: User, direct: bool, channel_id: int) -> Json:
        if direct:
            return payloads.dm_channel(self.dm_channel(user), user)
        return payloads.guild_channel(channel_id)

    async def command(
        self, user: User, name: str, *, direct: bool = False, channel_id: int = CHANNEL_ID,
        options: dict[str, object] | None = None, **named: object,
    ) -> Sent:  # fmt: skip
        """`/shutbox <name> option:value ...` typed by `user` (in a DM with the bot if `direct`);
        options under their registered names, e.g. `options={"last-die": True}`."""
        data = payloads.command_data(name, {**(options or {}), **named})
        return await self._deliver(2, user, data, self._channel(user, direct, channel_id), None)

    async def click(
        self, user: User, message_id: int, custom_id: str | None = None, *,
        snapshot: Json | None = None,
    ) -> Sent:  # fmt: skip
        """`user` presses a button (the first one by default) of a message as it stands now,
        or as it stood in `snapshot` (an outdated copy the user still has on screen)."""
        shown = copy.deepcopy(snapshot or self.messages[message_id])
        custom_id = custom_id or buttons(shown)[0]["custom_id"]
        data = {"custom_id": custom_id, "component_type": 2}
        channel = self._channel_of(user, int(shown["channel_id"]))
        return await self._deliver(3, user, data, channel, shown)

    def _channel_of(self, user: User, channel_id: int) -> Json:
        if channel_id in self.dms.values():
            return payloads.dm_channel(channel_id, user)
        return payloads.guild_channel(channel_id)

    async def redeliver(self, sent: Sent) -> None:
        """The same interaction (same id and token) delivered again, as after a gateway resume
        (over HTTP: POSTed again, once the first POST is answered)."""
        if self.mode == "http":
            if sent.posting is not None:
                await asyncio.shield(sent.posting)
            sent.posting = asyncio.create_task(self._post_interaction(sent))
            return
        connection = self._shard_for("guild_id" in sent.payload)
        await self._dispatch_to(connection, "INTERACTION_CREATE", sent.payload)

    async def _deliver(
        self, kind: int, user: User, data: Json, channel: Json, message: Json | None
    ) -> Sent:
        iid = payloads.snowflake()
        token = f"token-{iid}"
        payload = payloads.interaction(
            kind, user, data, interaction_id=iid, token=token, channel=channel, message=message
        )
        clicked = int(message["id"]) if message is not None else None
        sent = Sent(iid, token, payload, int(channel["id"]), clicked, time.monotonic())
        self.sent[iid] = sent
        if self.mode == "http":
            sent.posting = asyncio.create_task(self._post_interaction(sent))
            return sent
        connection = self._shard_for(channel["type"] == payloads.TEXT_CHANNEL)
        sent.shard = connection.shard[0] if connection.shard else 0
        await self._dispatch_to(connection, "INTERACTION_CREATE", payload)
        return sent

    async def _post_interaction(self, sent: Sent) -> None:
        """POST the interaction, signed, and apply the bot's answer as Discord would."""
        answer = await post_signed(self.endpoint, self.signer, sent.payload)
        sent.replies.append(answer)
        if answer.body is not None:
            self.problems += shape_problems(int(sent.payload["type"]), answer.body)
        if answer.status == 200 and answer.body is not None and sent.answer is None:
            sent.callbacks.append(answer.body)
            sent.answer, sent.answered_at = answer.body, time.monotonic()
            self._answer(sent, int(answer.body["type"]), answer.body.get("data") or {}, ())
        self._last_request = time.monotonic()
        await self._notify()

    async def answered(self, sent: Sent, within: float = 5.0) -> Sent:
        """Wait for the bot's answer to `sent`, and for anything it sends right after."""
        await self.until(lambda: sent.answer is not None, within)
        await self.settle()
        return sent

    def channel_messages(self, channel_id: int = CHANNEL_ID, *, public: bool = True) -> list[Json]:
        """The messages in a channel in order (public ones only unless asked)."""
        found = [self.messages[m] for m in self.order if m not in self.deleted]
        found = [m for m in found if m["channel_id"] == str(channel_id)]
        return [m for m in found if not public or not int(m["flags"]) & EPHEMERAL]

    def requests_to(self, method: str, fragment: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and fragment in r.path]


AFTER_MATCH = ("stb:review:", "stb:rematch:")  # the buttons a finished match keeps


def buttons(message: Json) -> list[Json]:
    """The buttons of a message, row by row."""
    return [item for row in message.get("components") or [] for item in row.get("components", [])]


def playing(message: Json) -> list[Json]:
    """The buttons that play the game: all but a finished match's Rematch and Review."""
    return [b for b in buttons(message) if not str(b["custom_id"]).startswith(AFTER_MATCH)]


def text_of(message: Json) -> str:
    """A message's content and embed text, for assertions."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
    return "\n".join(part for part in parts if part)
