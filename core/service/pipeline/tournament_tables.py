"""A tournament's tables as games: opening a table's match in its thread, and what the
channel is told when a table's end finishes a round (the next round, or the end).

The handler table names `open_table` for `OpenTable` (`TABLE_ROUTES`); the commit loop calls
core/service/features/tournaments/news.py once a tournament table's match has ended.
"""

from __future__ import annotations

from dataclasses import replace

from core.game.actions import Action, Begin, Join
from core.game.dice import new_fair_dice
from core.game.engine import new_game
from core.game.errors import IllegalMove
from core.game.payments import pot_account
from core.game.settlement import Pot
from core.game.tournament.values import Status
from core.service.features import rematch
from core.service.features.tournaments.command import OpenTable
from core.service.features.tournaments.records import load
from core.service.features.tournaments.tables import TableLink, table_config
from core.service.model.context import Context
from core.service.model.record import GameRecord, new_game_id
from core.service.model.services import Route
from core.service.model.views import Reply
from core.service.pipeline.opening import create_game
from core.service.pipeline.runtime import GameRuntime
from core.text.i18n import t


async def open_table(rt: GameRuntime, ctx: Context, command: OpenTable) -> Reply:
    """The table's match, begun at once with its players seated in the pairing's order."""
    stored = await load(rt.store, ctx.scope, command.tournament)
    current = stored.tournament.current if stored else None
    if stored is None or current is None or current.number != command.round or \
            stored.tournament.status is not Status.RUNNING:  # fmt: skip
        raise IllegalMove("error.tournament.table_gone")
    table = next((t for t in current.tables if t.number == command.table), None)
    if table is None or table.done:
        raise IllegalMove("error.tournament.table_gone")
    tournament, server = stored.tournament, await rt.server_config(ctx.scope)
    host, *others = table.seats
    game_id = new_game_id()
    record = GameRecord(
        state=new_game(table_config(tournament.settings, server.timer), host,
                       tournament.name_of(host)),
        channel=ctx.channel, game_id=game_id, lang=server.lang,
        style=rt.board_style(ctx.scope, server.style), pot=Pot(pot_account(ctx.channel)),
        fair=new_fair_dice(f"{ctx.channel}:{game_id}").to_str(), created=int(rt.clock()),
        tour=TableLink(tournament.id, current.number, table.number).to_str(),
    )  # fmt: skip
    actions: list[Action] = [Join(p, name=tournament.name_of(p)) for p in others]
    reply = await create_game(rt, ctx, record, [*actions, Begin(host)], server)
    players = ", ".join(rematch.mention(ctx, p, tournament.name_of(p)) for p in table.seats)
    call = t(server.lang, "tournament.table.call", players=players, n=current.number,
             table=table.number, name=tournament.settings.name)  # fmt: skip
    return replace(reply, public=(call, *reply.public))


TABLE_ROUTES = (Route(OpenTable, open_table),)
