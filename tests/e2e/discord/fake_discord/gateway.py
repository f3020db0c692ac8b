"""The gateway websocket: hello, identify, READY and the events dispatched to a shard."""

from __future__ import annotations

import json

from aiohttp import WSMsgType, web

from tests.e2e.discord import payloads
from tests.e2e.discord.fake_discord.records import HEARTBEAT_MS, Connection
from tests.e2e.discord.payloads import APP_ID, GUILD_ID, Json


class Gateway:
    """The gateway websocket: hello, identify, READY and the events dispatched to a shard.

    A part of `FakeDiscord` (server.py), which holds the state these methods use."""

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
