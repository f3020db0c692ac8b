"""`/shutbox tournament create|join|leave|start|standings|cancel`: one handler, one line each.

An admin creates, starts and cancels; members join and leave before the start. A tournament
whose start time has passed is started by the sweep (starts.py), or by a `tournament` command
that comes first: one commit starts it either way.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

from core.game.errors import InvalidOption, NotAllowed, ShutboxError, StaleAction
from core.game.tournament.draw import new_server_seed
from core.game.tournament.errors import TournamentClosed
from core.game.tournament.values import Entry, Status
from core.service.features.tournaments import texts
from core.service.features.tournaments.book import Book, Change
from core.service.features.tournaments.command import (
    ACTIONS,
    ADMIN_ACTIONS,
    TournamentCommand,
    settings_of,
)
from core.service.features.tournaments.leavers import left_lines
from core.service.features.tournaments.news import news_again, round_news
from core.service.features.tournaments.records import Stored, active, ended, load
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
    book = Book(services.store, ctx.scope, config.start_chips, ctx.request_id, services.clock,
                services.membership, services.contained)  # fmt: skip
    if action == "create":
        settings = settings_of(command, services.clock())
        made = await book.create(ctx.channel, secrets.token_hex(ID_BYTES), settings)
        return Reply(public=(texts.signup(made.after, config.lang),),
                     buttons=texts.signup_buttons(made.after, config.lang))
    news = await _start_when_due(book, services, ctx, config.lang) or await _caught_up(
        book, services, ctx, config.lang)
    if command.tournament:  # a sign-up button: only its own tournament
        await _check_signup(services, ctx, command.tournament)
    try:
        reply = await _act(action, book, services, ctx, config.lang, command.panel)
    except ShutboxError as error:
        if news is None:
            raise
        # The news is told whatever the command was (e.g. `standings` once it is over).
        said = t(await services.private_lang(ctx), error.key, **error.params)
        reply = Reply(private=said)
    if news is None:
        return reply
    return replace(reply, public=(*news.public, *reply.public), tables=news.tables + reply.tables,
                   elsewhere=(*news.elsewhere, *reply.elsewhere))


async def _act(action: str, book: Book, services: Services, ctx: Context, lang: str,
               panel: bool = False) -> Reply:  # fmt: skip
    if action == "start":
        change = await book.start(ctx.channel, new_server_seed())
        return _started(change, ctx.channel, lang)
    if action == "join":
        return _entries(await book.join(ctx.channel, Entry(ctx.user, ctx.name)), lang,
                        "tournament.joined", ctx.name, panel)  # fmt: skip
    if action == "leave":
        change = await book.leave(ctx.channel, ctx.user)
        services.forget(ctx.scope, (ctx.user,))
        return _entries(change, lang, "tournament.left", ctx.name, panel)
    if action == "cancel":
        change = await book.cancel(ctx.channel)
        services.forget(ctx.scope, change.after.players)
        return Reply(public=(t(lang, "tournament.cancelled", name=change.after.settings.name),))
    return await _standings(services, ctx, lang)


async def _check_signup(services: Services, ctx: Context, tournament_id: str) -> None:
    """A sign-up button acts only on its own tournament, while that one takes entries."""
    stored = await active(services.store, ctx.scope, ctx.channel)
    if stored is not None and stored.tournament.id == tournament_id:
        return
    pressed = await load(services.store, ctx.scope, tournament_id)
    if pressed is None:  # no such tournament here: a forged button, answered like any other
        raise StaleAction()
    found = pressed.tournament
    raise TournamentClosed(name=found.settings.name, status=found.status.value)


async def _start_when_due(book: Book, services: Services, ctx: Context,
                          lang: str) -> Reply | None:  # fmt: skip
    """The start, when the start time has passed (else None)."""
    stored = await active(services.store, ctx.scope, ctx.channel)
    if stored is None or stored.tournament.status is not Status.OPEN:
        return None
    due = stored.tournament.settings.starts_at
    if not due or due > services.clock():
        return None
    return _started(await book.start(ctx.channel, new_server_seed()), ctx.channel, lang)


async def _caught_up(book: Book, services: Services, ctx: Context, lang: str) -> Reply | None:
    """What a result left by a table, and not yet counted, finished (after a restart); and a
    finished round's (or the end's) news a process stopped before telling."""
    stored = await active(services.store, ctx.scope, ctx.channel)
    if stored is None or stored.tournament.status is not Status.RUNNING:
        stored = await ended(services.store, ctx.scope, ctx.channel)  # its end, untold?
        return await _told_again(book, stored, ctx.channel, lang) if stored else None
    changes = await book.catch_up(stored.tournament.id)
    told = tuple(said for change in changes for said in round_news(change, lang))
    calls = tuple(call for change in changes if change.advanced
                  for call in texts.table_calls(change.after, ctx.channel, lang))  # fmt: skip
    if told:
        return Reply(public=told, tables=calls)
    return await _told_again(book, stored, ctx.channel, lang)


async def _told_again(book: Book, stored: Stored, channel: str, lang: str) -> Reply | None:
    """A finished round's news a stopped process never told: told once more here, under the
    same keys (the surface posts each text and opens each table once)."""
    if not stored.news_due:
        return None
    await book.told(stored)
    again = tuple((channel, said) for said in news_again(stored.tournament, lang))
    return Reply(elsewhere=again, tables=texts.table_calls(stored.tournament, channel, lang))


def _started(change: Change, channel: str, lang: str) -> Reply:
    """Round 1's tables, announced and handed to the surface to open."""
    dropped = tuple(change.before.name_of(p) for p in change.dropped) if change.before else ()
    said = texts.started(change.after, dropped, lang)
    gone = left_lines(change.before, change.left, lang)
    return Reply(public=(*gone, said), tables=texts.table_calls(change.after, channel, lang))


def _entries(change: Change, lang: str, key: str, name: str, panel: bool) -> Reply:
    """Who joined or left, in the channel; pressed on the sign-up message, that message
    again with who is in now, edited in place under its buttons."""
    tournament = change.after
    if panel:
        return Reply(public=(texts.signup(tournament, lang),),
                     buttons=texts.signup_buttons(tournament, lang))  # fmt: skip
    said = t(lang, key, player=name, name=tournament.settings.name, n=len(tournament.entries))
    return Reply(public=(said,))


async def _standings(services: Services, ctx: Context, lang: str) -> Reply:
    stored = await active(services.store, ctx.scope, ctx.channel)
    if stored is None:
        raise InvalidOption("error.tournament.none")
    tournament = stored.tournament
    shown = texts.signup(tournament, lang) if tournament.status is Status.OPEN else (
        texts.standings_text(tournament, lang))  # fmt: skip
    return Reply(public=(shown,))
