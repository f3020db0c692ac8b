"""A tournament's tables in the playground: one terminal plays them one after another.

A chat opens each table of a round in a thread of its own; the playground has one terminal, so
it keeps the tables a reply names in a queue and, whenever nothing is being played where it
is, opens the next one in a channel of its own (`table/<tournament>/r1t2`) and plays it there,
the one person at the keyboard typing for each player in turn. The table's end brings the
standings (and the next round's tables); after the last table it is back in the playground's
channel.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from core.game.errors import ShutboxError
from core.service.api.service import Service
from core.service.features.tournaments.command import OpenTable
from core.service.model.context import Context
from core.service.model.views import Reply, TableCall
from core.text.i18n import t


@dataclass
class Tables:
    """The tables still to play, and the channel the keyboard plays in now."""

    main: str
    channel: str = ""
    queue: list[TableCall] = field(default_factory=list)
    seen: set[tuple[str, int, int]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.channel = self.channel or self.main

    def take(self, reply: Reply) -> None:
        """Queue the tables a reply starts (each once, however often it is shown)."""
        for call in reply.tables:
            key = (call.tournament, call.round, call.table)
            if key not in self.seen:
                self.seen.add(key)
                self.queue.append(call)

    def channel_of(self, call: TableCall) -> str:
        return f"{self.main}/{call.tournament}/r{call.round}t{call.table}"

    async def next(self, service: Service, ctx: Context, lang: str) -> tuple[str, Reply] | None:
        """Nothing is played here: open the next table (the line that says so, and its game),
        or, with none left, go back to the playground's channel; None when already there."""
        while self.queue:
            call = self.queue.pop(0)
            self.channel = self.channel_of(call)
            table_ctx = replace(ctx, channel=self.channel)
            try:
                opened = await service.handle(table_ctx, OpenTable(call.tournament, call.round,
                                                                   call.table))  # fmt: skip
            except ShutboxError:
                continue  # the table was played or the tournament called off meanwhile
            return t(lang, "playground.table.open", title=call.title), opened
        if self.channel == self.main:
            return None
        self.channel = self.main
        return t(lang, "playground.table.back"), Reply()
