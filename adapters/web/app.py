"""The servers' pages: `/s/<slug>/` and below, with their stylesheet and script.

Mounted on the aiohttp server every bot process runs for its probes (bot/health.py), so a
page works the same whether the process serves Discord, Slack or both. A slug that names no
server (never made, turned off, rotated away) gets the same plain 404 as any unknown path:
nothing tells a visitor whether a server exists.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from importlib.resources import files
from typing import Any

import jinja2
from aiohttp import web

from adapters.web.addresses import TrustedProxies
from adapters.web.guard import STATIC_CACHE, Buckets, guarded
from adapters.web.names import isolated, isolated_text
from core.service.features.economy import BOARDS, UNARCHIVED
from core.service.features.seasons import MAX_SEASON
from core.service.model.commit import Scope
from core.service.model.ports import GameStore
from core.service.show import web_matches, web_tournament
from core.service.show.web_views import TOKEN_CHARS, WebViews, plain
from core.text.i18n import t

PREFIX = "/s"
SLUG = re.compile(r"[A-Za-z0-9_-]{16,64}")
MATCH = re.compile(r"[A-Za-z0-9_-]{1,64}")
TOURNAMENT = re.compile(r"[0-9a-f]{1,16}")
TOKEN = re.compile(rf"[0-9a-f]{{{TOKEN_CHARS}}}")
STATIC_TYPES = {
    "style.css": "text/css",
    "verify.js": "text/javascript",
    "verify_tournament.js": "text/javascript",
}
MAX_PAGE = 10_000
# ASCII digits, a few: str.isdigit() also takes "²" and "①" (int() refuses them) and "٣"
WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")


def environment() -> jinja2.Environment:
    """The templates, every value escaped (a name's `<bdi>` is the filter's, around it)."""
    templates = jinja2.Environment(
        loader=jinja2.PackageLoader("adapters.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    templates.filters["who"] = isolated  # a member's name: cut, in its own <bdi>
    templates.filters["who_text"] = isolated_text
    return templates


def static_files() -> dict[str, bytes]:
    folder = files("adapters.web").joinpath("static")
    return {name: folder.joinpath(name).read_bytes() for name in STATIC_TYPES}


@dataclass(slots=True)
class Pages:
    """The handlers; `base` is the path SHUTBOX_PUBLIC_URL puts in front of `/s`."""

    store: GameStore
    clock: Callable[[], float]
    base: str
    templates: jinja2.Environment
    static: dict[str, bytes]

    @property
    def views(self) -> WebViews:
        return WebViews(self.store, self.clock)

    async def server(self, request: web.Request) -> tuple[str, Scope, str]:
        """The slug, its server and the server's language; a plain 404 for any other slug."""
        slug = request.match_info["slug"]
        scope = await self.store.web.server(slug) if SLUG.fullmatch(slug) else None
        if scope is None:
            raise web.HTTPNotFound
        return slug, scope, (await self.views.config(scope)).lang

    def render(self, template: str, slug: str, lang: str, **values: Any) -> web.Response:
        html = self.templates.get_template(template).render(
            t=partial(t, lang), lang=lang, root=f"{self.base}{PREFIX}/{slug}",
            static=f"{self.base}{PREFIX}/static", **values,
        )  # fmt: skip
        return web.Response(text=html, content_type="text/html")

    async def index(self, request: web.Request) -> web.Response:
        return await self._board(request, "wins")

    async def board(self, request: web.Request) -> web.Response:
        return await self._board(request, request.match_info["board"])

    async def _board(self, request: web.Request, board: str) -> web.Response:
        slug, scope, lang = await self.server(request)
        season = _number(request, "season", MAX_SEASON)
        page = _number(request, "page", MAX_PAGE)
        view = await self.views.board(scope, slug, board, season, (page or 1) - 1, lang)
        if view is None:
            raise web.HTTPNotFound
        boards = [(name, plain(t(lang, f"board.title.{name}", min=20))) for name in BOARDS]
        if season is not None:
            boards = [(name, label) for name, label in boards if name not in UNARCHIVED]
        return self.render(
            "board.html", slug, lang, section="boards", view=view, boards=boards,
            seasons=range(view.current - 1, 0, -1),
            archived_board="wins" if board in UNARCHIVED else board,
        )  # fmt: skip

    async def player(self, request: web.Request) -> web.Response:
        slug, scope, lang = await self.server(request)
        token = request.match_info["token"]
        view = await self.views.player(scope, slug, token, lang) if TOKEN.fullmatch(token) else None
        if view is None:
            raise web.HTTPNotFound
        rows, _, _ = await web_matches.recent(self.store, scope, slug, lang, user=view.user)
        points = await web_matches.ratings(self.store, scope, view.user, lang)
        return self.render("player.html", slug, lang, section="", view=view, rows=rows[:10],
                           points=points, line=sparkline([p.rating for p in points]))  # fmt: skip

    async def matches(self, request: web.Request) -> web.Response:
        slug, scope, lang = await self.server(request)
        page = (_number(request, "page", MAX_PAGE) or 1) - 1
        rows, page, pages = await web_matches.recent(self.store, scope, slug, lang, page)
        return self.render("matches.html", slug, lang, section="matches", rows=rows, page=page,
                           pages=pages)  # fmt: skip

    async def match(self, request: web.Request) -> web.Response:
        slug, scope, lang = await self.server(request)
        match_id = request.match_info["match"]
        view = None
        if MATCH.fullmatch(match_id):
            view = await web_matches.replay(self.store, scope, slug, match_id, lang)
        if view is None:
            raise web.HTTPNotFound
        return self.render("match.html", slug, lang, section="matches", view=view)

    async def tournaments(self, request: web.Request) -> web.Response:
        slug, scope, lang = await self.server(request)
        rows = await web_tournament.tournament_list(self.store, scope, lang)
        return self.render("tournaments.html", slug, lang, section="tournaments", rows=rows)

    async def tournament(self, request: web.Request) -> web.Response:
        slug, scope, lang = await self.server(request)
        found = request.match_info["tournament"]
        view = None
        if TOURNAMENT.fullmatch(found):
            view = await web_tournament.tournament_page(self.store, scope, found, lang)
        if view is None:
            raise web.HTTPNotFound
        return self.render("tournament.html", slug, lang, section="tournaments", view=view)

    async def challenge(self, request: web.Request) -> web.Response:
        slug, scope, lang = await self.server(request)
        view = await self.views.challenge(scope, slug, lang)
        return self.render("challenge.html", slug, lang, section="challenge", view=view)

    async def verify(self, request: web.Request) -> web.Response:
        """The verifier; `?match=ID` fills in a fair match's record, `?challenge=N` that of
        challenge day N once its day is over, `?tournament=ID` an ended tournament's record."""
        slug, scope, lang = await self.server(request)
        wanted = _number(request, "challenge", MAX_PAGE)
        match_id = request.query.get("match", "")
        tournament_id = request.query.get("tournament", "")
        record = ""
        if TOURNAMENT.fullmatch(tournament_id):
            view = await web_tournament.tournament_page(self.store, scope, tournament_id, lang)
            record = view.record if view is not None else ""
        elif wanted is not None:
            day = await self.views.challenge(scope, slug, lang)
            record = day.record if wanted == day.yesterday else ""
        elif MATCH.fullmatch(match_id):
            found = await web_matches.find(self.store, scope, match_id)
            record = found.fair if found is not None else ""
        return self.render("verify.html", slug, lang, section="verify", record=record)

    async def asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.static:
            raise web.HTTPNotFound
        return web.Response(
            body=self.static[name], content_type=STATIC_TYPES[name],
            headers={"Cache-Control": STATIC_CACHE},
        )  # fmt: skip


def sparkline(values: list[int], width: int = 300, height: int = 80) -> str:
    """SVG polyline points for `values`, left to right, the highest at the top."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = width / (len(values) - 1)
    return " ".join(
        f"{index * step:.1f},{4 + (height - 8) * (high - value) / span:.1f}"
        for index, value in enumerate(values)
    )


def _number(request: web.Request, name: str, most: int) -> int | None:
    """A whole-number query parameter from 1 to `most`; 400 for anything else."""
    text = request.query.get(name)
    if text is None:
        return None
    if not WHOLE_NUMBER.fullmatch(text) or not 1 <= int(text) <= most:
        raise web.HTTPBadRequest
    return int(text)


def pages_app(
    store: GameStore, base: str = "", clock: Callable[[], float] = time.time,
    buckets: Buckets | None = None, proxies: TrustedProxies | None = None,
) -> web.Application:  # fmt: skip
    """The pages as an application to mount at `/s` (`base` + `/s` in the links); `proxies`
    are those whose X-Forwarded-For names the visitor for the per-address limit."""
    pages = Pages(store, clock, base.rstrip("/"), environment(), static_files())
    app = web.Application(middlewares=[guarded(buckets or Buckets(), proxies)])
    app.router.add_get("/static/{name}", pages.asset)
    app.router.add_get("/{slug}/", pages.index)
    app.router.add_get("/{slug}/board/{board}", pages.board)
    app.router.add_get("/{slug}/player/{token}", pages.player)
    app.router.add_get("/{slug}/matches", pages.matches)
    app.router.add_get("/{slug}/match/{match}", pages.match)
    app.router.add_get("/{slug}/challenge", pages.challenge)
    app.router.add_get("/{slug}/tournaments", pages.tournaments)
    app.router.add_get("/{slug}/tournament/{tournament}", pages.tournament)
    app.router.add_get("/{slug}/verify", pages.verify)
    return app
