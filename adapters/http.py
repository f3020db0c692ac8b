"""Serving an aiohttp application on a port for as long as a block runs (Slack, health), and
routes bound once their handler exists."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from aiohttp import web


@asynccontextmanager
async def serving_app(app: web.Application, host: str, port: int) -> AsyncIterator[int]:
    """Listen on `host:port` while the block runs; yields the bound port (useful with port 0)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
        yield _bound_port(runner, port)
    finally:
        await runner.cleanup()


def _bound_port(runner: web.AppRunner, wanted: int) -> int:
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return int(address[1])
    return wanted


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class LateRoutes:
    """POST routes of a listener that starts before their handlers exist (the public listener
    is up before the Discord client has logged in): a path never bound is the app's own (404),
    one whose handler has stopped (a shutdown) answers 503."""

    def __init__(self) -> None:
        self._handlers: dict[str, Handler | None] = {}

    def bind(self, path: str, handler: Handler) -> None:
        self._handlers[path] = handler

    def unbind(self, path: str) -> None:
        self._handlers[path] = None

    def mount(self, app: web.Application) -> None:
        """Take the POSTs to the bound paths before `app`'s routes are consulted (a middleware:
        every other request is answered as if these routes did not exist)."""
        app.middlewares.append(self._dispatch)

    @web.middleware
    async def _dispatch(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method != "POST" or request.path not in self._handlers:
            return await handler(request)
        bound = self._handlers[request.path]
        if bound is None:
            return web.Response(status=503, text="not taking requests now\n")
        return await bound(request)
