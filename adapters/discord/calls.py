"""Turn calls on Discord: a short message that mentions only the player whose turn it is
(`allowed_mentions` for that user alone), posted once per turn and deleted when the turn
moves on, so the channel doesn't fill up."""

from __future__ import annotations

import logging

import discord

from core.service.api.service import Service
from core.service.features.pings import CALL_KEPT_SECONDS
from core.service.model.context import Context
from core.service.model.views import Reply, TurnCall

log = logging.getLogger(__name__)


async def show_calls(client: discord.Client, service: Service, ctx: Context,
                     reply: Reply) -> None:  # fmt: skip
    """Take the last turn's call down, then post this turn's."""
    channel = reply.game.channel if reply.game is not None else ctx.channel
    if reply.uncall:
        posted, ours = await service.post_game_once(ctx.scope, f"ping:{reply.uncall}", _none,
                                                    CALL_KEPT_SECONDS)  # fmt: skip
        if posted and not ours:
            try:
                await client.http.delete_message(channel, posted)
            except discord.NotFound:
                log.debug("turn call %s was already gone", posted)
    call = reply.call
    if call is not None:
        await service.post_game_once(ctx.scope, f"ping:{call.key}",
                                     lambda: _post(client, call), CALL_KEPT_SECONDS)  # fmt: skip


async def _none() -> str:
    return ""


async def _post(client: discord.Client, call: TurnCall) -> str:
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                       users=[discord.Object(int(call.user))])  # fmt: skip
    sent = await client.get_partial_messageable(int(call.channel)).send(
        call.text, allowed_mentions=mentions)
    return str(sent.id)
