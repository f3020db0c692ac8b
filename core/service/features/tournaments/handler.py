"""`/shutbox tournament create|join|leave|start|standings|cancel`: one handler, one line each.

An admin creates, starts and cancels; members join and leave before the start. A tournament
whose start time has passed starts on the first `tournament` command after it.
"""

from __future__ import annotations

import secrets

from core.game.errors import InvalidOption, NotAllowed
from core.game.tournament.draw import new_server_seed
from core.game.tournament.values import Entry, Status
from core.service.features.tournaments import texts
from core.service.features.tournaments.book import Book, Change
from core.service.features.tournaments.command import (
    ACTIONS,
    ADMIN_ACTIONS,
    TournamentCommand,
    settings_of,
)
from core.service.features.tournaments.news import round_news
from core.service.features.tournaments.records import active
from core.service.model.context import Context
from core.service.model.services import Services
from core.service.model.views import Reply
from core.text.i18n import t

ID_BYTES = 4  # a server's tournaments need only tell each other apart


async def tournament(services: Services, ctx: Context, command: TournamentCommand) -> Reply:
    """Run one tournament action and say what it did, in the channel or privately."""
    action = command.action.strip().lower()
    if action not in ACTIONS:
        raise InvalidOption("error.tournament.action", value=action[:20],
                            allowed=", ".join(ACTIONS))  # fmt: skip
    if action in ADMIN_ACTIONS and not ctx.admin:
        raise NotAllowed("error.admin_only")
    config = await services.server_config(ctx.scope)
    book = Book(services.store, ctx.scope, config.start_chips, ctx.request_id, services.clock)
    lang = config.lang
    if action == "create":
        settings = settings_of(command, services.clock())
        made = await book.create(ctx.channel, secrets.token_hex(ID_BYTES), settings)
        return Reply(public=(texts.signup(made.after, lang),))
    started = await _start_when_due(services, book, ctx) or await _caught_up(book, services, ctx)
    if action == "start":
        return Reply(public=(_started(await book.start(ctx.channel, new_server_seed()), lang),))
    if action == "join":
        return _entries(await book.join(ctx.channel, Entry(ctx.user, ctx.name)), lang,
                        "tournament.joined", ctx.name)  # fmt: skip
    if action == "leave":
        change = await book.leave(ctx.channel, ctx.user)
        services.forget(ctx.scope, (ctx.user,))
        return _entries(change, lang, "tournament.left", ctx.name)
    if action == "cancel":
        change = await book.cancel(ctx.channel)
        services.forget(ctx.scope, change.after.players)
        return Reply(public=(t(lang, "tournament.cancelled", name=change.after.settings.name),))
    return await _standings(services, ctx, lang, started)


async def _start_when_due(services: Services, book: Book, ctx: Context) -> str | None:
    """The start announcement when the start time has passed (else None)."""
    stored = await active(services.store, ctx.scope, ctx.channel)
    if stored is None or stored.tournament.status is not Status.OPEN:
        return None
    due = stored.tournament.settings.starts_at
    if not due or due > services.clock():
        return None
    config = await services.server_config(ctx.scope)
    return _started(await book.start(ctx.channel, new_server_seed()), config.lang)


async def _caught_up(book: Book, services: Services, ctx: Context) -> str | None:
    """What a result left by a table, and not yet counted, finished (after a restart)."""
    stored = await active(services.store, ctx.scope, ctx.channel)
    if stored is None or stored.tournament.status is not Status.RUNNING:
        return None
    lang = (await services.server_config(ctx.scope)).lang
    told = [said for change in await book.catch_up(stored.tournament.id)
            for said in round_news(change, lang)]  # fmt: skip
    return "\n\n".join(told) or None


def _started(change: Change, lang: str) -> str:
    dropped = tuple(change.before.name_of(p) for p in change.dropped) if change.before else ()
    return texts.started(change.after, dropped, lang)


def _entries(change: Change, lang: str, key: str, name: str) -> Reply:
    tournament = change.after
    said = t(lang, key, player=name, name=tournament.settings.name, n=len(tournament.entries))
    return Reply(public=(said,))


async def _standings(services: Services, ctx: Context, lang: str, started: str | None) -> Reply:
    stored = await active(services.store, ctx.scope, ctx.channel)
    if stored is None:
        raise InvalidOption("error.tournament.none")
    tournament = stored.tournament
    shown = texts.signup(tournament, lang) if tournament.status is Status.OPEN else (
        texts.standings_text(tournament, lang))  # fmt: skip
    return Reply(public=(*([started] if started else []), shown))
