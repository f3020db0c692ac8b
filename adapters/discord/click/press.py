"""One game click, from its JSON to its answer: the manager's `Click`, shown through
`ClickSurface` (adapters/discord/click/surface.py), in the order and with the failures'
handling of `interactions.answer` (the same `deliver`, `behind`, `apologise` and follow-ups)."""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from adapters.discord.click.answers import FirstAnswer, Json
from adapters.discord.click.surface import ClickSurface, answered_as
from adapters.discord.interactions import apologise, behind, within_budget
from adapters.discord.publish import ChannelSurface
from adapters.discord.render import pictures_of
from adapters.discord.responder import Responder
from adapters.discord.surface import InteractionSurface
from adapters.inflight import InFlight
from adapters.logcontext import bind
from core.service.api import delivery
from core.service.api.commands import Click
from core.service.api.service import Service
from core.service.model.context import Context
from core.service.model.views import Reply

log = logging.getLogger(__name__)
CLICK_DONE = "✅"  # never shown: a click that showed nothing is acknowledged silently


class ClickClient(Protocol):
    """What a click needs of the client (adapters/discord/client.py)."""

    manager: Service
    inflight: InFlight

    def interaction_of(self, data: Json) -> discord.Interaction[Any]:
        """discord.py's interaction of the JSON, built only when a reply needs it."""

    async def follow_up(self, ctx: Context, reply: Reply) -> None:
        """What the bot posts on its own after the answer (`interactions.follow_ups`)."""


class Lazy:
    """discord.py's surface for this click, built the first time something needs it."""

    def __init__(self, client: ClickClient, data: Json, first: FirstAnswer, ctx: Context) -> None:
        self.client, self.data, self.first, self.ctx = client, data, first, ctx
        self.built: InteractionSurface | None = None

    def __call__(self) -> InteractionSurface:
        if self.built is None:
            interaction = self.client.interaction_of(self.data)
            answered_as(interaction, self.first.given())
            channel = ChannelSurface(interaction.client, self.ctx.channel)
            self.built = InteractionSurface(Responder(interaction), channel)
        return self.built


async def press_json(
    client: ClickClient, first: FirstAnswer, data: Json, ctx: Context, custom_id: str
) -> None:
    """Run the click through the manager and answer it (a click is never left unanswered)."""
    full = Lazy(client, data, first, ctx)
    surface = ClickSurface(data, first, pictures_of(client), full)
    with client.inflight.track(f"discord interaction {ctx.request_id}"):
        try:
            await _press(client, surface, full, ctx, custom_id)
        finally:
            first.release()


async def _press(
    client: ClickClient, surface: ClickSurface, full: Lazy, ctx: Context, custom_id: str
) -> None:
    bind(request_id=ctx.request_id, server=f"discord:{ctx.scope.server}", channel=ctx.channel,
         user=ctx.user)  # fmt: skip
    manager, first = client.manager, surface.first
    try:
        reply = await within_budget(manager.handle(ctx, Click(custom_id)), first.settle)
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
        await first.settle()
        await client.follow_up(ctx, reply)
    except Exception as error:  # the request was handled: never say that nothing changed
        await behind(full().responder, manager, ctx, reply, error)
