"""`/shutbox web [on|off|rotate]`: the server's own page (leaderboards, matches, the verifier).

A page is opt-in: an admin's `web on` makes an unguessable slug and answers with the link,
`web off` takes the page down at once, `web rotate` replaces the slug (the old link stops
working). Anyone may ask for the link with a bare `web`; it is shown privately either way.
"""

from __future__ import annotations

import secrets

from core.game.errors import InvalidOption, NotAllowed
from core.service.api.commands import Web
from core.service.model.context import Context
from core.service.model.views import Reply
from core.service.pipeline.runtime import GameRuntime
from core.text.i18n import t

ACTIONS = ("on", "off", "rotate")
SLUG_BYTES = 16  # 128 random bits: a link cannot be guessed, only shared


def new_slug() -> str:
    return secrets.token_urlsafe(SLUG_BYTES)


def page_url(public_url: str, slug: str) -> str:
    """The page's address under SHUTBOX_PUBLIC_URL."""
    return f"{public_url.rstrip('/')}/s/{slug}/"


async def web(manager: GameRuntime, ctx: Context, command: Web) -> Reply:
    """The link, or turn the page on, off or to a new link."""
    lang = await manager.private_lang(ctx)
    action = command.action
    if action and action not in ACTIONS:
        raise InvalidOption("error.option.web", value=action, allowed=", ".join(ACTIONS))
    if action and not ctx.admin:
        raise NotAllowed("error.admin_only")
    pages = manager.store.web
    if action == "off":
        closed = await pages.close(ctx.scope)
        return Reply(private=t(lang, "web.off" if closed else "web.already_off"))
    if not manager.public_url:
        return Reply(private=t(lang, manager.no_pages))
    slug = await pages.slug(ctx.scope)
    if (action == "rotate" and slug is not None) or (action == "on" and slug is None):
        slug = new_slug()
        await pages.open(ctx.scope, slug)
        key = "web.rotated" if action == "rotate" else "web.on"
    elif slug is None:
        key = "web.none" if action == "" else "web.already_off"
    else:
        key = "web.link" if action != "on" else "web.already_on"
    url = page_url(manager.public_url, slug) if slug is not None else ""
    return Reply(private=t(lang, key, url=url))
