"""A tournament's UTC start time starts it, without any command: the sweep asks the store's
start index (core/store/tournament_starts.py) for the starts due, and starts each through the
same version-checked commit as `tournament start`, so a command and the timer racing start it
once. A tournament with fewer than 2 players at its start time is cancelled (every held entry
fee is released) and its channel is told why.
"""

from __future__ import annotations

from collections.abc import Callable

from core.game.errors import ShutboxError
from core.game.tournament.draw import new_server_seed
from core.game.tournament.errors import TooFewEntries
from core.game.tournament.values import Status
from core.service.features.tournaments import texts
from core.service.features.tournaments.book import Book
from core.service.features.tournaments.leavers import left_lines
from core.service.features.tournaments.news import news_again
from core.service.features.tournaments.records import Stored, load
from core.service.model.commit import Scope
from core.service.model.services import Services
from core.service.model.views import Reply
from core.text.i18n import t


async def start_due(services: Services, now: int, platform: str | None = None,
                    owns: Callable[[Scope], bool] | None = None,
                    ) -> list[tuple[Scope, Reply]]:  # fmt: skip
    """Start every tournament whose start time has come (of `platform`, those `owns` takes)."""
    started = []
    for scope, tournament_id in await services.store.starts.due(now):
        if (platform is not None and scope.platform != platform) or (owns and not owns(scope)):
            continue
        reply = await _start(services, scope, tournament_id)
        await services.store.starts.done(scope, tournament_id)  # started, or never will be
        if reply is not None:
            started.append((scope, reply))
    return started


async def _start(services: Services, scope: Scope, tournament_id: str) -> Reply | None:
    """The start and round 1 for the tournament's channel; None if a command started it (or
    it was cancelled) first."""
    stored = await load(services.store, scope, tournament_id)
    if stored is None:
        return None
    config = await services.server_config(scope)
    book = Book(services.store, scope, config.start_chips, None, services.clock,
                services.membership)  # fmt: skip
    channel, lang = stored.channel, config.lang
    if stored.tournament.status is not Status.OPEN:
        return await _told_again(book, stored, lang)
    try:
        change = await book.start(channel, new_server_seed(), told_later=True)
    except TooFewEntries:
        return await _called_off(book, stored, lang)
    except ShutboxError:  # started, cancelled or replaced meanwhile: nothing for us to tell
        return None
    before = change.before
    dropped = tuple(before.name_of(p) for p in change.dropped) if before else ()
    said = (*left_lines(before, change.left, lang), texts.started(change.after, dropped, lang))
    return Reply(elsewhere=tuple((channel, text) for text in said),
                 tables=texts.table_calls(change.after, channel, lang))  # fmt: skip


async def _told_again(book: Book, stored: Stored, lang: str) -> Reply | None:
    """A start this sweep committed but a stopped process never told: told now, under the
    same keys (the surface posts each text and opens each table once)."""
    tournament = stored.tournament
    if not stored.news_due or tournament.status is not Status.RUNNING:
        return None
    await book.told(stored)
    said = tuple((stored.channel, text) for text in news_again(tournament, lang))
    return Reply(elsewhere=said, tables=texts.table_calls(tournament, stored.channel, lang))


async def _called_off(book: Book, stored: Stored, lang: str) -> Reply | None:
    """Fewer than 2 players at the start time: cancelled, every held fee released."""
    try:
        change = await book.cancel(stored.channel)
    except ShutboxError:
        return None
    said = t(lang, "tournament.start_failed", name=change.after.settings.name)
    return Reply(elsewhere=((stored.channel, said),))
