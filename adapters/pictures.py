"""Board pictures served by the bot's own web server, for chat clients that load images by URL.

`GET {SHUTBOX_PUBLIC_URL}/board/<state>.png?s=<signature>`: the path names what is drawn
(`DrawnBoard.to_token`: flaps, dice, whose turn, the pot; no game id, no user id) and the
signature is an HMAC of it under the bot's key, so nobody can have the bot draw pictures it did
not link to. A state never changes its picture, so the answer may be cached for good; a new
state is a new URL, which also keeps Slack's image cache from showing an old board.

- a path that is no picture's: 400; a missing or wrong signature: 404 (nothing to find there);
- a picture: 200, `image/png`, `Cache-Control: public, max-age=31536000, immutable`, an ETag
  (the signature), and 304 to a request that already holds it;
- a picture not drawn lately costs a render (about 2 ms of CPU): each address gets
  `RENDER_BURST` at once, then `RENDER_RATE` a second (the visitor's address as the pages take
  it, SHUTBOX_TRUSTED_PROXIES); past that, 429. Pictures drawn lately are served to anyone.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import partial
from urllib.parse import quote

from aiohttp import web

from adapters.web.addresses import TrustedProxies
from adapters.web.guard import HEADERS, Buckets, answered, too_many
from core.text.drawn import BadPicture, DrawnBoard
from core.text.picture import FRAMES_CACHED, board_png

BOARD_PATH = "/board/{name}"
SUFFIX = ".png"
SIGNATURE = "s"  # the query parameter
SIGNATURE_BYTES = 16  # 128 bits, 22 characters in the URL
FOREVER = "public, max-age=31536000, immutable"
KEY_CONTEXT = b"shutbox board pictures"  # a key derived from another secret is only for this
# Renders of pictures not drawn lately, per address: a busy workspace's image proxy draws a
# few new boards a second; more than this from one address is someone replaying old links.
RENDER_RATE, RENDER_BURST = 10.0, 100


def derived_key(secret: str) -> bytes:
    """A key for the picture signatures from another secret, which it cannot give away."""
    return hmac.new(secret.encode(), KEY_CONTEXT, hashlib.sha256).digest()


@dataclass(frozen=True, slots=True)
class PictureLinks:
    """Signed picture URLs under the bot's public address, and their check."""

    public_url: str  # e.g. https://shutbox.example.org (a trailing slash is ignored)
    key: bytes

    def url(self, token: str) -> str:
        base = self.public_url.rstrip("/")
        return f"{base}/board/{quote(token, safe='.-_')}{SUFFIX}?{SIGNATURE}={self.sign(token)}"

    def sign(self, token: str) -> str:
        digest = hmac.new(self.key, token.encode(), hashlib.sha256).digest()[:SIGNATURE_BYTES]
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def signed(self, token: str, signature: str) -> bool:
        return hmac.compare_digest(self.sign(token), signature)


@dataclass(slots=True)
class Renders:
    """The pictures drawn lately, and the per-address limit on drawing new ones."""

    proxies: TrustedProxies = field(default_factory=TrustedProxies)
    buckets: Buckets = field(default_factory=lambda: Buckets(RENDER_RATE, RENDER_BURST))
    kept: int = FRAMES_CACHED
    _pngs: OrderedDict[DrawnBoard, bytes] = field(default_factory=OrderedDict)

    async def png(self, board: DrawnBoard, request: web.Request) -> bytes | None:
        """The picture, or None when this address has drawn too many new ones lately."""
        found = self._pngs.get(board)
        if found is not None:
            self._pngs.move_to_end(board)
            return found
        if not self.buckets.allow(self.proxies.client(request)):
            return None
        # A thread: the first picture of a process draws the sprites (most of a second)
        png = self._pngs[board] = await asyncio.to_thread(board_png, board)
        while len(self._pngs) > self.kept:
            self._pngs.popitem(last=False)
        return png


def add_picture_routes(
    app: web.Application, links: PictureLinks, renders: Renders | None = None
) -> None:
    """Serve `/board/<state>.png` on `app` (GET, and HEAD with it)."""
    drawn = renders or Renders()

    async def picture(request: web.Request) -> web.StreamResponse:
        response = await answered(request, partial(serve_picture, links=links, renders=drawn))
        response.headers.update(HEADERS)  # on every answer, as the pages' (errors too)
        return response

    app.router.add_get(BOARD_PATH, picture)


async def serve_picture(
    request: web.Request, links: PictureLinks, renders: Renders
) -> web.StreamResponse:
    name = request.match_info["name"]
    if not name.endswith(SUFFIX):
        return _refusal(400, "not a board picture")
    token = name.removesuffix(SUFFIX)
    try:
        board = DrawnBoard.from_token(token)
    except BadPicture:
        return _refusal(400, "not a board picture")
    signature = request.query.get(SIGNATURE, "")
    if not links.signed(token, signature):
        return _refusal(404, "no such picture")
    etag = f'"{signature}"'
    headers = {"Cache-Control": FOREVER, "ETag": etag}
    if etag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    png = await renders.png(board, request)
    if png is None:
        return too_many()
    return web.Response(body=png, content_type="image/png", headers=headers)


def _refusal(status: int, text: str) -> web.Response:
    """One line; never cached, so a URL that starts working is not remembered as broken."""
    return web.Response(status=status, text=text + "\n", headers={"Cache-Control": "no-store"})
