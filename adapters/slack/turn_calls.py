"""Turn calls on Slack: a threaded reply under the game message that names the player whose
turn it is (Slack notifies a member named `<@id>`), once per turn, deleted when the turn moves
on. A game that is itself in a thread (a tournament's table) is called in that thread."""

from __future__ import annotations

import logging

from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.calls import CallFailed, calling
from adapters.slack.threads import split, thread_channel
from adapters.turn_calls import show_calls as shown
from core.service.api.service import Service
from core.service.model.context import Context
from core.service.model.views import Reply, TurnCall

log = logging.getLogger(__name__)


async def show_calls(service: Service, ctx: Context, client: AsyncWebClient,
                     reply: Reply) -> None:  # fmt: skip
    """Take the last turn's call down, then post this turn's."""

    async def delete(channel: str, ts: str) -> None:
        await _delete(client, split(channel)[0], ts)

    await shown(service, ctx, reply, lambda call: _post(client, call), delete)


async def _post(client: AsyncWebClient, call: TurnCall) -> str:
    base, thread = split(call.channel)
    if thread is None and call.under:
        base, thread = split(thread_channel(base, call.under))
    async with calling("chat.postMessage"):
        response = await client.chat_postMessage(channel=base, text=call.text, thread_ts=thread)
    return str(response["ts"])


async def _delete(client: AsyncWebClient, channel: str, ts: str) -> None:
    try:
        async with calling("chat.delete"):
            await client.chat_delete(channel=channel, ts=ts)
    except CallFailed as failed:  # already gone: nothing left to take down
        log.info("turn call %s not deleted: %s", ts, failed.reason)
