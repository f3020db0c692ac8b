"""What the channel is told when a tournament table's end finishes a round: the standings,
then the next round's tables or the end with its prizes."""

from __future__ import annotations

from dataclasses import replace

from core.game.errors import ShutboxError
from core.service.features.tournaments import texts
from core.service.features.tournaments.book import Book, Change
from core.service.features.tournaments.tables import TableLink
from core.service.model.commit import Scope
from core.service.model.ports import StoreUnavailable
from core.service.model.services import Services
from core.service.model.views import Reply


async def after_table(services: Services, scope: Scope, tour: str, reply: Reply) -> Reply:
    """A tournament table's match is over: count what the tournament has not counted yet, and
    add what the channel is told of a round that finished (its standings, the next tables)."""
    link = TableLink.parse(tour)
    if link is None:
        return reply
    server = await services.server_config(scope)
    book = Book(services.store, scope, server.start_chips, None, services.clock)
    try:
        changes = await book.catch_up(link.tournament)
    except (ShutboxError, StoreUnavailable):
        # The match's end and its result are stored; the next `tournament` command (or the
        # next table's end) counts it. The player's move must not look refused.
        return reply
    told = tuple((change.channel, said) for change in changes
                 for said in round_news(change, server.lang))  # fmt: skip
    calls = tuple(call for change in changes if change.advanced
                  for call in texts.table_calls(change.after, change.channel, server.lang))
    if not told:
        return reply
    # The standings go to the tournament's channel; the table's thread keeps its own game.
    return replace(reply, elsewhere=(*reply.elsewhere, *told), tables=(*reply.tables, *calls))


def round_news(change: Change, lang: str) -> list[str]:
    """The standings after a finished round, then the next round's tables or the end."""
    after = change.after
    if change.finished:
        return [texts.standings_text(after, lang), texts.finished_text(after, lang)]
    if change.advanced and after.current is not None:
        return [texts.standings_text(after, lang), texts.round_text(after, after.current, lang)]
    return []
