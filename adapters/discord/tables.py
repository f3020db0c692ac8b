"""A tournament's tables on Discord: each in a thread of the tournament's channel.

For each table a reply names, the bot posts the table's line in the channel and opens a thread
on it (`POST /channels/{id}/messages/{id}/threads`), once however often the reply is delivered
and whichever process delivers it; then it opens the table's match in that thread, where the
players are called and play with the usual buttons.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import replace
from typing import Final

import discord

from adapters.discord.publish import ChannelSurface
from adapters.discord.render import split_text
from core.service.api.delivery import deliver
from core.service.api.service import Service
from core.service.features.tournaments.command import OpenTable
from core.service.features.tournaments.tables import ONCE_SECONDS
from core.service.model.context import Context
from core.service.model.views import Reply, TableCall

log = logging.getLogger(__name__)
THREAD_ARCHIVE_MINUTES: Final = 1440  # a day: a cup's evening fits, then the threads tidy away


async def open_tables(client: discord.Client, service: Service, ctx: Context,
                      reply: Reply) -> None:  # fmt: skip
    """Open every table the reply names that no delivery has opened yet."""
    for call in reply.tables:
        key = f"table:{call.tournament}:{call.round}:{call.table}"
        thread, ours = await service.post_game_once(
            ctx.scope, key, lambda call=call: _new_thread(client, call),  # type: ignore[misc]
            ONCE_SECONDS)
        if not thread or not ours:
            continue  # another delivery opened it and shows its match
        table_ctx = replace(ctx, channel=thread, request_id=key, mentions=True)
        opened = await service.handle(table_ctx, OpenTable(call.tournament, call.round,
                                                           call.table))  # fmt: skip
        await deliver(opened, ChannelSurface(client, thread), service, table_ctx)


async def post_elsewhere(client: discord.Client, service: Service, ctx: Context,
                         reply: Reply) -> None:  # fmt: skip
    """The reply's texts for other channels (a tournament's standings), once each."""
    for channel, text in reply.elsewhere:
        key = "say:" + hashlib.sha256(f"{channel}\n{text}".encode()).hexdigest()[:24]
        await service.post_game_once(
            ctx.scope, key, lambda c=channel, x=text: _say(client, c, x),  # type: ignore[misc]
            ONCE_SECONDS)


async def _say(client: discord.Client, channel: str, text: str) -> str:
    sent = None
    for part in split_text(text):
        sent = await client.get_partial_messageable(int(channel)).send(part)
    return str(sent.id) if sent is not None else ""


async def _new_thread(client: discord.Client, call: TableCall) -> str:
    """The table's line in the channel, and a public thread started on it."""
    starter = await client.get_partial_messageable(int(call.channel)).send(call.title)
    # The REST call itself: a message sent through a partial channel has no guild attached,
    # which discord.py's `create_thread` wants only to build its `Thread` object.
    thread = await client.http.start_thread_with_message(
        call.channel, starter.id, name=call.title, auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        rate_limit_per_user=None,
    )  # fmt: skip
    log.info("table %s:%s:%s opened in thread %s", call.tournament, call.round, call.table,
             thread["id"])  # fmt: skip
    return str(thread["id"])
