"""A bare Discord HTTP-interactions app, the baseline of `bench_surface --surface discord-http`:
aiohttp, PyNaCl's `VerifyKey.verify` on every POST, and a type-4 / type-7 JSON answer with an
embed and two rows of buttons, as our game message is shown, with no game behind it.

`python -m tests.bench.bare_discord_http --port N --public-key HEX`
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from aiohttp import web
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from tests.bench.bare_discord import CLICKS_PER_GAME, TILES

PATH = "/discord/interactions"
Json = dict[str, Any]


def game_message(clicks: int) -> Json:
    board = " ".join(f"`{n}`" if n > clicks % TILES else "`·`" for n in range(1, TILES + 1))
    embed = {"title": "Shut the Box", "description": f"{board}\n🎲 ⚃ ⚂ = 7",
             "footer": {"text": f"Ann · click {clicks}"}}  # fmt: skip
    rows = []
    if clicks < CLICKS_PER_GAME:
        rows = [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": f"{n}+{row}", "custom_id": f"bare:{clicks}:{row}:{n}"}
            for n in range(1, 5)]} for row in range(2)]  # fmt: skip
    return {"embeds": [embed], "components": rows}


def answer(interaction: Json) -> Json:
    """PING -> PONG; the command -> a new game message; a click -> that message edited."""
    kind = interaction["type"]
    if kind == 1:
        return {"type": 1}
    if kind == 2:
        return {"type": 4, "data": game_message(0)}
    clicks = int(str(interaction["data"]["custom_id"]).split(":")[1]) + 1
    return {"type": 7, "data": game_message(clicks)}


def app(key: VerifyKey) -> web.Application:
    async def interactions(request: web.Request) -> web.Response:
        body = await request.read()
        signature = request.headers.get("X-Signature-Ed25519", "")
        stamp = request.headers.get("X-Signature-Timestamp", "")
        try:
            key.verify(stamp.encode() + body, bytes.fromhex(signature))
        except (BadSignatureError, ValueError):
            return web.Response(status=401)
        return web.json_response(answer(json.loads(body)))

    application = web.Application()
    application.router.add_post(PATH, interactions)
    return application


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--public-key", required=True)
    args = parser.parse_args()
    web.run_app(app(VerifyKey(bytes.fromhex(args.public_key))), host="127.0.0.1",
                port=args.port, print=None)  # fmt: skip


if __name__ == "__main__":
    main()
