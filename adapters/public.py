"""What the public listener serves besides Slack's requests: the board pictures, the pages and
Discord's interactions (`DISCORD_MODE=http`).

The public listener is the one port an operator forwards from the internet (through a proxy,
under SHUTBOX_PUBLIC_URL). The probes and `/metrics` are never on it: they are the operator
listener's (bot/health.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from aiohttp import web

from adapters.http import LateRoutes
from adapters.pictures import PictureLinks, Renders, add_picture_routes
from adapters.web.addresses import TrustedProxies
from core.service.model.ports import GameStore


@dataclass(frozen=True, slots=True)
class PublicSide:
    """The pictures (when they can be signed), the pages (when there is a public URL) and the
    POST routes bound once their handlers exist (Discord's interactions)."""

    store: GameStore
    public_url: str | None = None
    pictures: PictureLinks | None = None
    proxies: TrustedProxies = field(default_factory=TrustedProxies)
    posts: LateRoutes | None = None

    def mount(self, app: web.Application) -> None:
        """Add `/board/`, `/s/` and the late POST routes to `app`, as far as this side serves
        them."""
        if self.posts is not None:
            self.posts.mount(app)
        if self.pictures is not None:
            add_picture_routes(app, self.pictures, Renders(self.proxies))
        if self.public_url:
            from adapters.web.app import PREFIX, pages_app

            base = urlsplit(self.public_url).path
            app.add_subapp(PREFIX, pages_app(self.store, base, proxies=self.proxies))

    def app(self) -> web.Application:
        """An application of its own, for a public listener without Slack on it."""
        app = web.Application()
        self.mount(app)
        return app
