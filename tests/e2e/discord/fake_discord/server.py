"""The fake Discord's state and its web server: the routes of `Rest` and `Gateway`, every
request recorded."""

from __future__ import annotations

import asyncio
import itertools
import time

from aiohttp import web

from tests.e2e.discord.fake_discord.driving import Driving
from tests.e2e.discord.fake_discord.gateway import Gateway
from tests.e2e.discord.fake_discord.records import (
    BODY,
    Connection,
    Fault,
    Handler,
    Request,
    Sent,
    error,
    fault_kind,
)
from tests.e2e.discord.fake_discord.rest import Rest
from tests.e2e.discord.fake_members import GuildMembers
from tests.e2e.discord.multipart import read_body
from tests.e2e.discord.payloads import Json
from tests.e2e.discord.signed import Signer


class FakeDiscord(Rest, Gateway, Driving):
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
