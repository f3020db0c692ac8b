"""Serving the Slack app: HTTP (bolt's aiohttp app on a port) or Socket Mode (no public URL).

HTTP serves Slack's requests at `/slack/events`, the OAuth install flow at `/slack/install`
and `/slack/oauth_redirect` when OAuth is configured, and, as the bot's public listener, the
board pictures at `/board/` and the servers' pages at `/s/` when the bot has a public address
(SHUTBOX_PUBLIC_URL; adapters/public.py). (Health and metrics are the operator listener,
bot/health.py, on another port.)
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

from adapters.http import serving_app
from adapters.pictures import add_picture_routes
from adapters.public import PublicSide
from adapters.slack.app import SlackBot
from adapters.slack.guard import guard

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"


def web_app(
    bot: SlackBot, on_ack: Callable[[float], None] | None = None, public: PublicSide | None = None
) -> web.Application:
    """bolt's aiohttp application: Slack's requests, and the install flow when OAuth is on.

    Each request to `EVENTS_PATH` is checked first (`guard`): bolt answers malformed ones with
    a 500 and a traceback. `on_ack` gets the seconds each request to EVENTS_PATH took to answer:
    bolt answers the HTTP request when the listener acks, so that is the acknowledgement time
    Slack sees. `public` adds the pictures and pages; without it, the pictures of the config.
    """
    app = bot.app.web_app(path=EVENTS_PATH)
    if public is not None:
        public.mount(app)
    elif bot.config.pictures is not None:  # board pictures, under SHUTBOX_PUBLIC_URL
        add_picture_routes(app, bot.config.pictures)
    app.middlewares.append(guard(bot.config.signing_secret, EVENTS_PATH))
    if on_ack is not None:
        app.middlewares.append(_timing(on_ack))
    return app


def _timing(on_ack: Callable[[float], None]) -> Middleware:
    @web.middleware
    async def timed(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path != EVENTS_PATH:
            return await handler(request)
        started = time.perf_counter()
        try:
            return await handler(request)
        finally:
            on_ack(time.perf_counter() - started)

    return timed


@asynccontextmanager
async def serving_http(
    bot: SlackBot, host: str, port: int, on_ack: Callable[[float], None] | None = None,
    public: PublicSide | None = None,
) -> AsyncIterator[int]:  # fmt: skip
    """Listen on `host:port` while the block runs; yields the port (useful with port 0)."""
    async with serving_app(web_app(bot, on_ack, public), host, port) as bound:
        yield bound


@asynccontextmanager
async def serving_socket_mode(bot: SlackBot, app_token: str) -> AsyncIterator[None]:
    """Hold a Socket Mode connection (the app token opens it) while the block runs."""
    handler = AsyncSocketModeHandler(bot.app, app_token)
    await handler.connect_async()  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        await handler.close_async()  # type: ignore[no-untyped-call]
