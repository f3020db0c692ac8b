"""What the channel is told when a tournament table's end finishes a round: the standings,
then the next round's tables or the end with its prizes."""

from __future__ import annotations

from dataclasses import replace

from core.game.tournament.values import Status, Tournament
from core.service.features.tournaments import texts
from core.service.features.tournaments.book import Change
from core.service.features.tournaments.leavers import left_lines
from core.service.model.commit import Scope
from core.service.model.services import Services
from core.service.model.views import Reply


async def after_table(services: Services, scope: Scope, change: Change, reply: Reply) -> Reply:
    """A tournament table's match is over and counted: add what the channel is told of a
    round that finished (its standings, the next tables)."""
    lang = (await services.server_config(scope)).lang
    said = (*left_lines(change.before, change.left, lang), *round_news(change, lang))
    told = tuple((change.channel, text) for text in said)
    if not told:
        return reply
    calls = texts.table_calls(change.after, change.channel, lang) if change.advanced else ()
    # The standings go to the tournament's channel; the table's thread keeps its own game.
    return replace(reply, elsewhere=(*reply.elsewhere, *told), tables=(*reply.tables, *calls))


def news_again(tournament: Tournament, lang: str) -> list[str]:
    """The last finished round's news, told again (a process stopped before telling it)."""
    if tournament.status is Status.FINISHED:
        return [texts.standings_text(tournament, lang), texts.finished_text(tournament, lang)]
    if tournament.current is None:
        return []
    if len(tournament.rounds) == 1 and not any(t.done for t in tournament.current.tables):
        return [texts.started(tournament, (), lang)]  # the start itself was not told
    return [texts.standings_text(tournament, lang),
            texts.round_text(tournament, tournament.current, lang)]  # fmt: skip


def round_news(change: Change, lang: str) -> list[str]:
    """The standings after a finished round, then the next round's tables or the end."""
    after = change.after
    if change.finished:
        return [texts.standings_text(after, lang), texts.finished_text(after, lang)]
    if change.advanced and after.current is not None:
        return [texts.standings_text(after, lang), texts.round_text(after, after.current, lang)]
    return []
