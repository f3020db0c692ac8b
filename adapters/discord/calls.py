"""Turn calls on Discord: a short message that mentions only the player whose turn it is
(`allowed_mentions` for that user alone), posted once per turn and deleted when the turn
moves on, so the channel doesn't fill up."""

from __future__ import annotations

import logging

import discord

from adapters.turn_calls import show_calls as shown
from core.service.api.service import Service
from core.service.model.context import Context
from core.service.model.views import Reply, TurnCall

log = logging.getLogger(__name__)


async def show_calls(client: discord.Client, service: Service, ctx: Context,
                     reply: Reply) -> None:  # fmt: skip
    """Take the last turn's call down, then post this turn's."""

    async def delete(channel: str, message: str) -> None:
        try:
            await client.http.delete_message(channel, message)
        except discord.NotFound:
            log.debug("turn call %s was already gone", message)

    await shown(service, ctx, reply, lambda call: _post(client, call), delete)


async def _post(client: discord.Client, call: TurnCall) -> str:
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                       users=[discord.Object(int(call.user))])  # fmt: skip
    sent = await client.get_partial_messageable(int(call.channel)).send(
        call.text, allowed_mentions=mentions)
    return str(sent.id)
