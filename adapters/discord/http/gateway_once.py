"""One gateway connection, identified and closed: what Discord asks of a bot before its token
may post messages, done once by the HTTP mode (which otherwise never opens the gateway).

A plain websocket IDENTIFY with no intents: HELLO, IDENTIFY, READY, close. It is not a session
(nothing is received after READY) and costs one of the day's 1000 identifies.
"""

from __future__ import annotations

import asyncio
import json
import platform
from typing import Any

import aiohttp
import yarl

HELLO, IDENTIFY, DISPATCH = 10, 2, 0
WITHIN = 20.0  # seconds for the whole exchange


class GatewayRefused(Exception):
    """The gateway closed or failed before READY; `str()` says how, in one line."""


async def identify_once(gateway_url: str, token: str, within: float = WITHIN) -> None:
    """Connect to the gateway, identify with `token`, wait for READY, and close."""
    url = yarl.URL(gateway_url).with_query(v=10, encoding="json")
    try:
        async with (
            asyncio.timeout(within),
            aiohttp.ClientSession() as session,
            session.ws_connect(url) as socket,
        ):
            await _frame(socket, HELLO)
            await socket.send_str(json.dumps(_identify(token)))
            while (await _frame(socket, DISPATCH)).get("t") != "READY":
                pass
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
        raise GatewayRefused(f"{type(error).__name__}: {error}".splitlines()[0]) from None


async def _frame(socket: aiohttp.ClientWebSocketResponse, op: int) -> dict[str, Any]:
    """The next frame with opcode `op` (others, such as heartbeat requests, are passed over)."""
    while True:
        message = await socket.receive()
        if message.type is not aiohttp.WSMsgType.TEXT:
            raise GatewayRefused(f"the gateway closed the connection ({socket.close_code})")
        frame: dict[str, Any] = json.loads(message.data)
        if frame.get("op") == op:
            return frame


def _identify(token: str) -> dict[str, Any]:
    properties = {"os": platform.system().lower(), "browser": "shutbox", "device": "shutbox"}
    return {"op": IDENTIFY, "d": {"token": token, "intents": 0, "properties": properties}}
