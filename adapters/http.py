"""Serving an aiohttp application on a port for as long as a block runs (Slack, health)."""

from __future__ import annotations

from collections.abc import AsyncIterator
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
