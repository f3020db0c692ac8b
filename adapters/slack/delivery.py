"""Showing a core `Reply` in Slack: the one game message, public summaries, private notes.

The game message is posted once (chat.postMessage) and its `ts` attached to the game; every
later view edits it in place (chat.update). A view that is no longer the game's latest (a late
or repeated delivery) is not shown, so the message never goes back in time. However often Slack
delivers a request, and whichever process takes each delivery, a game's message is posted once
and a reply's summaries are announced once (the manager hands out both claims).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.blocks import game_blocks, game_text, mrkdwn, panel_blocks
from core.service.buttons import belongs_to
from core.service.context import Context
from core.service.manager import GameManager
from core.service.record import GameRecord
from core.service.views import GameView, Reply

log = logging.getLogger(__name__)

Respond = Callable[..., Awaitable[Any]]
MESSAGE_GONE = ("message_not_found", "cant_update_message", "edit_window_closed")
MAX_REMEMBERED = 10_000


def is_current(view: GameView, record: GameRecord | None) -> bool:
    """Whether `view` shows the channel's game as it stands (or the end of the game just over)."""
    if record is None:
        return view.over
    return record.game_id == view.game_id and record.version == view.version


@dataclass(slots=True)
class Delivery:
    manager: GameManager
    posted: dict[str, str] = field(default_factory=dict)  # game id -> ts this process posted

    async def deliver(
        self,
        reply: Reply,
        ctx: Context,
        client: AsyncWebClient,
        respond: Respond | None,
        *,
        clicked: str = "",
        button: str = "",
    ) -> None:
        """Game message first, then public texts (once, whoever delivers first), then private.

        `clicked` is the ts of the message whose `button` was pressed: the game message itself,
        unless the button belongs to another game (a finished match's Rematch).
        """
        if reply.game is not None:
            shown = clicked if belongs_to(button, reply.game.game_id) else ""
            await self.show_game(reply.game, ctx, client, shown)
        channel = reply.game.channel if reply.game is not None else ctx.channel
        texts = await self.manager.publishable(ctx.scope, reply)
        if reply.buttons and texts:  # a leaderboard page with its Previous / Next
            blocks, text = panel_blocks(texts[0], reply.buttons), mrkdwn(texts[0])
            if not clicked or not await _update(client, channel, clicked, blocks, text):
                await client.chat_postMessage(channel=channel, blocks=blocks, text=text)
            texts = texts[1:]
        for text in texts:  # round and match summaries carry their Review button
            if rows := reply.buttons_under(text):
                blocks = panel_blocks(text, rows)
                await client.chat_postMessage(channel=channel, blocks=blocks, text=mrkdwn(text))
            else:
                await client.chat_postMessage(channel=channel, text=mrkdwn(text))
        if reply.private and reply.private not in reply.public:
            await tell(respond, reply.private)

    async def show_game(
        self, view: GameView, ctx: Context, client: AsyncWebClient, clicked: str = ""
    ) -> None:
        """Edit the game's message, or post it (and remember its ts) when it has none yet."""
        record = await self.manager.current(ctx)
        if not is_current(view, record):
            return
        known = view.message or (record.message if record is not None else "")
        # A click or a deadline can beat `attach_message` of a message posted a moment ago (or
        # a commit planned before it can write the record back without the ts): the clicked
        # message, or the one this process posted, is the game message then.
        message = known or clicked or self.posted.get(view.game_id, "")
        blocks, text = game_blocks(view), game_text(view)
        if message and await _update(client, view.channel, message, blocks, text):
            if not known:
                await self.manager.attach_message(ctx, message)
            self._remember(view, message)
            return

        async def post() -> str:
            response = await client.chat_postMessage(channel=view.channel, blocks=blocks, text=text)
            return str(response["ts"])

        # However often the request that shows it is delivered, the message is posted once.
        gone = message
        message, ours = await self.manager.post_game_once(ctx.scope, f"{view.game_id}:{gone}", post)
        if not message:
            return
        if not ours:
            await _update(client, view.channel, message, blocks, text)
        await self.manager.attach_message(ctx, message)
        self._remember(view, message)

    def _remember(self, view: GameView, message: str) -> None:
        if view.over:
            self.posted.pop(view.game_id, None)
            return
        if len(self.posted) >= MAX_REMEMBERED:
            self.posted.clear()
        self.posted[view.game_id] = message


async def _update(
    client: AsyncWebClient, channel: str, ts: str, blocks: list[dict[str, Any]], text: str
) -> bool:
    """chat.update; False when the message is gone (deleted) and a new one should be posted."""
    try:
        await client.chat_update(channel=channel, ts=ts, blocks=blocks, text=text)
    except SlackApiError as error:
        if error.response.get("error") in MESSAGE_GONE:
            return False
        raise
    return True


async def tell(respond: Respond | None, text: str) -> None:
    """An ephemeral note to the user who acted, through the request's response_url."""
    if respond is None:
        log.info("private reply with nowhere to go: %s", text)
        return
    await respond(text=mrkdwn(text), response_type="ephemeral", replace_original=False)
