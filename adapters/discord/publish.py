"""Showing a game where no interaction can answer: edits and posts through the channel's REST API.

Used after a deadline passed (the sweep has no interaction to answer) and when a slash command
changes a game whose message is elsewhere in the channel.
"""

from __future__ import annotations

import logging

import discord
from discord.utils import MISSING

from adapters.discord.buttons import game_buttons, row_buttons
from adapters.discord.render import game_embed, split_text
from core.service.commit import Scope
from core.service.context import Context
from core.service.manager import GameManager
from core.service.views import GameView, Reply

log = logging.getLogger(__name__)

BOT_ACTOR = "discord"  # who attaches a message the bot posted on its own


async def remember_message(manager: GameManager, scope: Scope, channel: str, message: str) -> None:
    """Keep the game message's id with the game, so any process can edit it later."""
    await manager.attach_message(Context(scope, channel, BOT_ACTOR, BOT_ACTOR), message)


async def show_in_channel(
    client: discord.Client, manager: GameManager, scope: Scope, view: GameView
) -> str:
    """Edit the game message, or post it anew if it has none or it was deleted; returns its id."""
    channel = client.get_partial_messageable(int(view.channel))
    embed, buttons = game_embed(view), game_buttons(view)
    if view.message:
        try:
            await channel.get_partial_message(int(view.message)).edit(embed=embed, view=buttons)
            return view.message
        except discord.NotFound:
            log.info("game message %s in %s is gone; posting it again", view.message, view.channel)

    async def post() -> str:
        return str((await channel.send(embed=embed, view=buttons or MISSING)).id)

    # However often the timeout or command that shows it is delivered, it is posted once.
    message, ours = await manager.post_game_once(scope, f"{view.game_id}:{view.message}", post)
    if ours:
        await remember_message(manager, scope, view.channel, message)
    elif message:  # the other delivery's message: show this view on it too
        await channel.get_partial_message(int(message)).edit(embed=embed, view=buttons)
    return message


async def post_texts(
    client: discord.Client, channel: str, texts: tuple[str, ...], reply: Reply
) -> None:
    """Public messages (round and match summaries) as new messages in the channel; a text's
    buttons (a summary's Review) go under its last part."""
    target = client.get_partial_messageable(int(channel))
    for text in texts:
        parts, buttons = split_text(text), row_buttons(reply.buttons_under(text))
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            await target.send(part, view=(buttons if last else None) or MISSING)


async def show_timeout(
    client: discord.Client, manager: GameManager, scope: Scope, reply: Reply
) -> None:
    """A deadline passed and the manager moved the game on: show it, then the summaries."""
    if reply.game is None:
        return  # without a game there is no channel to show anything in
    try:
        await show_in_channel(client, manager, scope, reply.game)
        await post_texts(client, reply.game.channel, await manager.publishable(scope, reply), reply)
    except discord.HTTPException:
        log.exception("could not show a timeout in channel %s", reply.game.channel)
