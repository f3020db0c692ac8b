"""What every page response carries, and the per-address request limit.

Safe by default: a Content-Security-Policy that allows only this server's own stylesheet and
script (no inline script or style, no frames, no forms posting elsewhere), `nosniff`,
`noindex`, no referrer (the page's link is its only secret), no cookies ever set, and a short
cache lifetime so `web off` is not undone by a cache for long.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web
from aiohttp.typedefs import Middleware

from adapters.web.addresses import TrustedProxies

CSP = (
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Robots-Tag": "noindex, nofollow",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
PAGE_CACHE = "private, max-age=30"
NO_STORE = {"Cache-Control": "no-store"}  # an error: a link that starts working is not remembered
STATIC_CACHE = "public, max-age=3600"
RATE = 2.0  # requests a second an address may keep up
BURST = 60  # requests an address may make at once
MAX_ADDRESSES = 10_000  # the table forgets the quietest addresses beyond this

log = logging.getLogger("shutbox.web")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(slots=True)
class Buckets:
    """A token bucket per address: `burst` requests at once, then `rate` a second."""

    rate: float = RATE
    burst: int = BURST
    clock: Callable[[], float] = time.monotonic
    _tokens: dict[str, tuple[float, float]] = field(default_factory=dict)

    def allow(self, address: str) -> bool:
        now = self.clock()
        tokens, then = self._tokens.get(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if len(self._tokens) >= MAX_ADDRESSES and address not in self._tokens:
            self._forget(now)
        if tokens < 1:
            self._tokens[address] = (tokens, now)
            return False
        self._tokens[address] = (tokens - 1, now)
        return True

    def _forget(self, now: float) -> None:
        """Drop the addresses whose bucket has filled up again (they are as good as new)."""
        full = [a for a, (n, t) in self._tokens.items() if n + (now - t) * self.rate >= self.burst]
        for address in full or list(self._tokens)[: MAX_ADDRESSES // 10]:
            del self._tokens[address]


def too_many() -> web.Response:
    return web.Response(
        status=429, text="429: Too many requests; try again in a minute.\n",
        headers={"Retry-After": "30", "Cache-Control": "no-store"},
    )  # fmt: skip


async def answered(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The handler's answer; any error as one plain line (nothing about the server)."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        status, reason = error.status, error.reason
    except Exception:  # a bug or Redis away: logged here, one line to the visitor
        route = request.match_info.route.resource  # its pattern: never the slug in the log
        log.exception("a page failed: %s", route.canonical if route else "?")
        status, reason = 500, "Internal Server Error"
    return web.Response(status=status, text=f"{status}: {reason}\n", headers=NO_STORE)


def guarded(buckets: Buckets, proxies: TrustedProxies | None = None) -> Middleware:
    """The middleware: the limit first, then the headers on every answer (errors too)."""
    trusted = proxies or TrustedProxies()

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not buckets.allow(trusted.client(request)):
            response: web.StreamResponse = too_many()
        else:
            response = await answered(request, handler)
        response.headers.update(HEADERS)
        if "Cache-Control" not in response.headers:
            cached = response.status == 200
            response.headers["Cache-Control"] = PAGE_CACHE if cached else "no-store"
        return response

    return guard
