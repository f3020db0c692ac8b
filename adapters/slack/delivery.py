"""Showing a core `Reply` in Slack: the one game message, public summaries, private notes.

The game message is posted once (chat.postMessage) and its `ts` attached to the game; every
later view edits it in place (chat.update). A view that is no longer the game's latest (a late
or repeated delivery) is not shown, so the message never goes back in time. However often Slack
delivers a request, and whichever process takes each delivery, a game's message is posted once
and a reply's summaries are announced once (the manager hands out both claims).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from adapters.pictures import PictureLinks
from adapters.slack.blocks import game_blocks, game_text, mrkdwn, panel_blocks
from adapters.slack.calls import RESPONSE_URL, CallFailed, calling
from adapters.slack.threads import split, thread_channel
from adapters.slack.turn_calls import show_calls
from core.service.api.delivery import GameMessage, Rows, deliver
from core.service.api.service import Service
from core.service.features.tournaments.command import OpenTable
from core.service.features.tournaments.tables import ONCE_SECONDS
from core.service.model.context import Context
from core.service.model.record import GameRecord
from core.service.model.views import GameView, Reply, TableCall

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
    """Shows each request's reply (and each passed deadline's) in Slack, through `deliver`."""

    manager: Service
    posted: dict[str, str] = field(default_factory=dict)  # game id -> ts this process posted
    pictures: PictureLinks | None = None  # the board picture's URLs (image style)

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
        game = reply.game
        channel = game.channel if game is not None and not game.private else ctx.channel
        surface = SlackSurface(self, ctx, client, respond, channel, clicked, button)
        await deliver(reply, surface, self.manager, ctx)
        if reply.call is not None or reply.uncall:  # the player whose turn it is now
            await show_calls(self.manager, ctx, client, reply)
        for channel, text in reply.elsewhere:  # a tournament's standings, in its channel
            key = "say:" + hashlib.sha256(f"{channel}\n{text}".encode()).hexdigest()[:24]
            await self.manager.post_game_once(
                ctx.scope, key, lambda c=channel, x=text: post_message(client, c, mrkdwn(x)),  # type: ignore[misc]
                ONCE_SECONDS)
        for call in reply.tables:  # a tournament round starts: each table in a thread
            await self._open_table(call, ctx, client)

    async def _open_table(self, call: TableCall, ctx: Context, client: AsyncWebClient) -> None:
        """The table's line in the tournament's channel, once, and its match in a thread."""
        key = f"table:{call.tournament}:{call.round}:{call.table}"
        line, ours = await self.manager.post_game_once(
            ctx.scope, key, lambda: post_message(client, call.channel, call.title), ONCE_SECONDS)
        if not line or not ours:
            return  # another delivery opened it and shows its match
        table_ctx = replace(ctx, channel=thread_channel(call.channel, line), request_id=key)
        opened = await self.manager.handle(table_ctx, OpenTable(call.tournament, call.round,
                                                                call.table))  # fmt: skip
        await self.deliver(opened, table_ctx, client, None)

    def remember(self, view: GameView, message: str) -> None:
        if view.over:
            self.posted.pop(view.game_id, None)
            return
        if len(self.posted) >= MAX_REMEMBERED:
            self.posted.clear()
        self.posted[view.game_id] = message


@dataclass(frozen=True, slots=True)
class SlackSurface:
    """One request (or passed deadline) as a `Surface`: the Web API posts and edits in the
    channel, the request's response_url answers privately."""

    delivery: Delivery
    ctx: Context
    client: AsyncWebClient
    respond: Respond | None
    channel: str  # where public texts go
    clicked: str = ""
    pressed: str = ""
    private_first: bool = False  # the request was acknowledged already

    async def locate(self, view: GameView, clicked: str) -> GameMessage | None:
        """The game's message; a view that is no longer the game's latest (a late or repeated
        delivery) is not shown, so the message never goes back in time."""
        record = await self.delivery.manager.current(self.ctx)
        if not is_current(view, record):
            return None
        known = view.message or (record.message if record is not None else "")
        if known:
            return GameMessage(known, attached=True)
        # A click or a deadline can beat `attach_message` of a message posted a moment ago (or
        # a commit planned before it can write the record back without the ts): the clicked
        # message, or the one this process posted, is the game message then.
        return GameMessage(clicked or self.delivery.posted.get(view.game_id, ""), attached=False)

    async def edit_game(self, view: GameView, message: str) -> bool:
        blocks, text = game_blocks(view, self.delivery.pictures), game_text(view)
        if not await _update(self.client, view.channel, message, blocks, text):
            return False
        self.delivery.remember(view, message)
        return True

    async def post_game(self, view: GameView) -> str:
        blocks = game_blocks(view, self.delivery.pictures)
        posted = await self._post(view.channel, game_text(view), blocks)
        self.delivery.remember(view, posted)
        return posted

    async def show_private_game(self, view: GameView) -> None:
        """Through the request's response_url: a click on the ephemeral message replaces it
        (`replace_original`), a command answers with a new ephemeral one."""
        if self.respond is None:
            log.info("private game %s with nowhere to go", view.game_id)
            return
        await self.respond(
            text=game_text(view), blocks=game_blocks(view), response_type="ephemeral",
            replace_original=bool(self.clicked),
        )  # fmt: skip

    async def show_panel(self, text: str, rows: Rows) -> None:
        blocks, fallback = panel_blocks(text, rows), mrkdwn(text)
        if not self.clicked or not await _update(
            self.client, self.channel, self.clicked, blocks, fallback
        ):
            await self._post(self.channel, fallback, blocks)

    async def post_public(self, text: str, rows: Rows) -> None:
        await self._post(self.channel, mrkdwn(text), panel_blocks(text, rows) if rows else None)

    async def answer_private(self, text: str) -> None:
        await tell(self.respond, text)

    async def _post(self, channel: str, text: str, blocks: list[dict[str, Any]] | None) -> str:
        """chat.postMessage (in a tournament table's thread, for a `<channel>/<ts>` channel);
        returns the new message's ts."""
        return await post_message(self.client, channel, text, blocks)


async def post_message(
    client: AsyncWebClient, channel: str, text: str, blocks: list[dict[str, Any]] | None = None
) -> str:
    base, thread = split(channel)
    extra: dict[str, Any] = {"thread_ts": thread} if thread else {}
    if blocks is not None:
        extra["blocks"] = blocks
    async with calling("chat.postMessage"):
        response = await client.chat_postMessage(channel=base, text=text, **extra)
    return str(response["ts"])


async def _update(
    client: AsyncWebClient, channel: str, ts: str, blocks: list[dict[str, Any]], text: str
) -> bool:
    """chat.update; False when the message is gone (deleted) and a new one should be posted."""
    try:
        async with calling("chat.update"):
            await client.chat_update(channel=split(channel)[0], ts=ts, blocks=blocks, text=text)
    except CallFailed as failed:
        if failed.reason in MESSAGE_GONE:
            return False
        raise
    return True


async def tell(respond: Respond | None, text: str) -> None:
    """An ephemeral note to the user who acted, through the request's response_url."""
    if respond is None:
        log.info("private reply with nowhere to go: %s", text)
        return
    async with calling(RESPONSE_URL):
        await respond(text=mrkdwn(text), response_type="ephemeral", replace_original=False)
