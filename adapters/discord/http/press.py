"""One game click over HTTP, from its JSON to its answer: the manager's `Click`, shown through
`ClickSurface` (see adapters/discord/http/click.py), in the order and with the failures'
handling of `interactions.answer` (the same `deliver`, `behind`, `apologise` and follow-ups)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from adapters.discord.http.click import ClickSurface, answered_as
from adapters.discord.http.exchange import Exchange, Json
from adapters.discord.interactions import apologise, behind, follow_ups, within_budget
from adapters.discord.publish import ChannelSurface
from adapters.discord.render import pictures_of
from adapters.discord.responder import Responder
from adapters.discord.surface import InteractionSurface
from adapters.logcontext import bind
from core.service.api import delivery
from core.service.api.commands import Click
from core.service.model.context import Context

log = logging.getLogger(__name__)
CLICK_DONE = "✅"  # never shown: a click that showed nothing is acknowledged silently

if TYPE_CHECKING:
    from adapters.discord.client import ShutboxClient


class Lazy:
    """discord.py's surface for this click, built the first time something needs it."""

    def __init__(self, client: ShutboxClient, data: Json, exchange: Exchange, ctx: Context) -> None:
        self.client, self.data, self.exchange, self.ctx = client, data, exchange, ctx
        self.built: InteractionSurface | None = None

    def __call__(self) -> InteractionSurface:
        if self.built is None:
            interaction = self.client.interaction_of(self.data)
            answered_as(interaction, self.exchange.answer.result() if self.exchange.answer.done()
                        else None)  # fmt: skip
            channel = ChannelSurface(interaction.client, self.ctx.channel)
            self.built = InteractionSurface(Responder(interaction), channel)
        return self.built


async def press_json(
    client: ShutboxClient, exchange: Exchange, data: Json, ctx: Context, custom_id: str
) -> None:
    """Run the click through the manager and answer it (a click is never left unanswered)."""
    full = Lazy(client, data, exchange, ctx)
    surface = ClickSurface(data, exchange, pictures_of(client), full)
    with client.inflight.track(f"discord interaction {ctx.request_id}"):
        try:
            await _press(client, surface, full, ctx, custom_id)
        finally:
            exchange.acknowledge()


async def _press(
    client: ShutboxClient, surface: ClickSurface, full: Lazy, ctx: Context, custom_id: str
) -> None:
    bind(request_id=ctx.request_id, server=f"discord:{ctx.scope.server}", channel=ctx.channel,
         user=ctx.user)  # fmt: skip
    manager, exchange = client.manager, surface.exchange

    async def defer() -> None:
        exchange.acknowledge()

    try:
        reply = await within_budget(manager.handle(ctx, Click(custom_id)), defer)
    except Exception:
        log.exception("interaction %s failed", ctx.request_id)
        await apologise(full().responder, ctx)
        return
    if reply.replayed:  # its first delivery answers (see interactions.answer)
        log.info("interaction %s delivered again: its first delivery answers", ctx.request_id)
        return
    try:
        await delivery.deliver(reply, surface, manager, ctx)
        if full.built is not None:
            await full.built.responder.finish(CLICK_DONE)
        exchange.acknowledge()
        await follow_ups(client, manager, ctx, reply)
    except Exception as error:  # the request was handled: never say that nothing changed
        await behind(full().responder, manager, ctx, reply, error)
