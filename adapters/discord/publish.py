"""Showing a game where no interaction can answer: edits and posts through the channel's REST API.

Used after a deadline passed (the sweep has no interaction to answer) and when a slash command
changes a game whose message is elsewhere in the channel.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import discord
from discord.utils import MISSING

from adapters.discord.buttons import game_buttons, row_buttons
from adapters.discord.render import game_embed, game_files, pictures_of, split_text
from adapters.pictures import PictureLinks
from core.service.api.delivery import GameMessage, Rows, deliver
from core.service.api.service import Service
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.views import GameView, Reply

log = logging.getLogger(__name__)

BOT_ACTOR = "discord"  # who acts when the bot shows a game on its own


def game_message(view: GameView, clicked: str) -> GameMessage:
    """The message the game knows, else the pressed one (Discord keeps no record of its own)."""
    return GameMessage(view.message, True) if view.message else GameMessage(clicked, False)


@dataclass(slots=True)
class ChannelSurface:
    """The channel's REST API as a `Surface`: nobody to answer privately."""

    client: discord.Client
    channel_id: str  # where public texts go
    private_first: bool = True  # as in an interaction (a deadline has no private texts to show)
    clicked: str = ""
    pressed: str = ""

    @property
    def pictures(self) -> PictureLinks | None:
        return pictures_of(self.client)

    def messageable(self, channel: str) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(int(channel))

    async def locate(self, view: GameView, clicked: str) -> GameMessage:
        return game_message(view, clicked)

    async def edit_game(self, view: GameView, message: str) -> bool:
        embed, buttons = game_embed(view, self.pictures), game_buttons(view)
        try:
            found = self.messageable(view.channel).get_partial_message(int(message))
            await found.edit(embed=embed, view=buttons, attachments=game_files(view, self.pictures))
        except discord.NotFound:
            log.info("game message %s in %s is gone; posting it again", message, view.channel)
            return False
        return True

    async def post_game(self, view: GameView) -> str:
        embed, buttons = game_embed(view, self.pictures), game_buttons(view)
        files = game_files(view, self.pictures) or MISSING
        sent = await self.messageable(view.channel).send(embed=embed, view=buttons or MISSING,
                                                         files=files)  # fmt: skip
        return str(sent.id)

    async def show_panel(self, text: str, rows: Rows) -> None:
        await self.post_public(text, rows)

    async def post_public(self, text: str, rows: Rows) -> None:
        """A new message (in parts if long); its buttons (a summary's Review) go under the last."""
        parts, buttons = split_text(text), row_buttons(rows)
        target = self.messageable(self.channel_id)
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            await target.send(part, view=(buttons if last else None) or MISSING)

    async def answer_private(self, text: str) -> None:
        log.debug("private text with nobody to answer: %s", text)

    async def show_private_game(self, view: GameView) -> None:
        # Only an interaction reaches a private message; a challenge has no deadline to sweep.
        log.debug("private game %s with nobody to show it to", view.game_id)


async def show_timeout(
    client: discord.Client,
    manager: Service,
    scope: Scope,
    reply: Reply,
    report: Callable[[str, str], None] | None = None,
) -> None:
    """A deadline passed and the manager moved the game on: show it, then the summaries.

    When Discord refuses (after discord.py's own retries), the failure is counted and the
    next sweep tries again with the game as Redis then holds it.
    """
    if reply.game is None:
        return  # without a game there is no channel to show anything in
    channel = reply.game.channel
    try:
        ctx = Context(scope, channel, BOT_ACTOR, BOT_ACTOR)
        await deliver(reply, ChannelSurface(client, channel), manager, ctx)
    except discord.HTTPException as error:
        log.warning("could not show the game in channel %s: %s %s", channel, error.status,
                    error.text or "")  # fmt: skip
        if report is not None:
            report("channel", "ratelimited" if error.status == 429 else f"http_{error.status}")
        manager.show_later(scope, channel)
