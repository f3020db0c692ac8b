"""Routes bound after their listener started: the public listener is up before the Discord
client has logged in, and Discord's POSTs must neither reach a half-made bot nor a 500."""

from __future__ import annotations

import aiohttp
from aiohttp import web

from adapters.http import LateRoutes, serving_app

PATH = "/discord/interactions"


async def answered(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.post(
        f"http://127.0.0.1:{port}{path}", data=b"{}"
    ) as response:
        return response.status, await response.text()


async def test_a_route_answers_once_bound_and_503_once_unbound() -> None:
    async def handler(request: web.Request) -> web.Response:
        return web.Response(text="taken")

    routes, app = LateRoutes(), web.Application()
    app.router.add_get("/livez", handler)
    routes.mount(app)

    async with serving_app(app, "127.0.0.1", 0) as port:
        assert (await answered(port, PATH))[0] == 404  # nobody serves it yet
        routes.bind(PATH, handler)
        assert await answered(port, PATH) == (200, "taken")
        assert (await answered(port, "/elsewhere"))[0] == 404
        routes.unbind(PATH)  # a shutdown: no new requests
        assert await answered(port, PATH) == (503, "not taking requests now\n")
