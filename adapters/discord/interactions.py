"""One interaction in, one manager call, and its `Reply` shown: the response within 3 seconds.

A slash command's game message becomes the interaction's response; a click on the game message
edits that message in place (`edit_message`); private text is ephemeral; summaries follow as
public messages. Work that takes longer than the budget is deferred first.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.utils import MISSING

from adapters.discord.buttons import game_buttons, row_buttons
from adapters.discord.publish import remember_message, show_in_channel
from adapters.discord.render import game_embed, jump_url, split_text
from core.service.buttons import belongs_to
from core.service.commands import Click
from core.service.commit import Scope
from core.service.context import Context
from core.service.manager import GameManager
from core.service.views import GameView, Reply
from core.text.i18n import normalize_lang, t

log = logging.getLogger(__name__)

PLATFORM = "discord"
ANSWER_BUDGET = 2.0  # seconds of work before deferring; Discord drops answers after 3
OUR_LOCALES = ("en", "da", "no", "nb", "nn")

Interaction = discord.Interaction[Any]
Call = Callable[[Context], Awaitable[Reply]]


def user_lang(locale: discord.Locale) -> str | None:
    """The catalog language of a user's Discord locale; None (the server's) when we have none."""
    primary = locale.value.split("-")[0].lower()
    return normalize_lang(primary) if primary in OUR_LOCALES else None


def context_for(interaction: Interaction) -> Context:
    """Who acts where: the guild's economy, or the user's own for a direct message."""
    user, guild_id = interaction.user, interaction.guild_id
    direct = guild_id is None
    return Context(
        scope=Scope(PLATFORM, f"dm-{user.id}" if direct else str(guild_id)),
        channel=str(interaction.channel_id or user.id),
        user=str(user.id),
        name=user.display_name,
        locale=user_lang(interaction.locale),
        admin=not direct and interaction.permissions.manage_guild,
        request_id=str(interaction.id),
        direct=direct,
    )


class Responder:
    """Answers one interaction: the first answer is its response, the rest are follow-ups."""

    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.placeholder: bool | None = None  # a deferred "thinking" message; True = ephemeral
        self.sent = False

    @property
    def clicked_message(self) -> int | None:
        """The id of the message whose button was pressed (None for a slash command)."""
        message = self.interaction.message
        if self.interaction.type is not discord.InteractionType.component or message is None:
            return None
        return message.id

    async def defer(self, *, ephemeral: bool) -> None:
        """Acknowledge now and answer later (a click's message is then edited in place)."""
        response = self.interaction.response
        if response.is_done():
            return
        if self.clicked_message is not None:
            await response.defer()
            return
        await response.defer(ephemeral=ephemeral, thinking=True)
        self.placeholder = ephemeral

    async def say(
        self, text: str, *, ephemeral: bool, buttons: discord.ui.View | None = None
    ) -> None:
        """The text (in parts if long); its buttons go under the last part."""
        parts = split_text(text)
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            await self._say(part, ephemeral, (buttons if last else None) or MISSING)

    async def _say(self, part: str, ephemeral: bool, view: Any) -> None:
        response, self.sent = self.interaction.response, True
        if not response.is_done():
            await response.send_message(part, ephemeral=ephemeral, view=view)
        elif self.placeholder == ephemeral:
            self.placeholder = None
            await self.interaction.edit_original_response(content=part, view=view)
        else:
            await self._drop_placeholder()
            await self.interaction.followup.send(part, ephemeral=ephemeral, view=view)

    async def _drop_placeholder(self) -> None:
        """A "thinking" message of the wrong visibility cannot be turned into the answer."""
        if self.placeholder is not None:
            self.placeholder = None
            await self.interaction.delete_original_response()

    async def post(self, embed: discord.Embed, buttons: discord.ui.View | None) -> int:
        """A new public message with the game; returns its id."""
        response, self.sent = self.interaction.response, True
        if not response.is_done():
            callback = await response.send_message(embed=embed, view=buttons or MISSING)
            if callback is not None and callback.message_id is not None:
                return callback.message_id
            return (await self.interaction.original_response()).id
        if self.placeholder is False:
            self.placeholder = None
            return (await self.interaction.edit_original_response(embed=embed, view=buttons)).id
        await self._drop_placeholder()
        sent = await self.interaction.followup.send(embed=embed, view=buttons or MISSING, wait=True)
        return sent.id

    async def update_clicked(self, embed: discord.Embed, buttons: discord.ui.View | None) -> None:
        """Edit the message whose button was pressed."""
        response, self.sent = self.interaction.response, True
        if response.is_done():
            await self.interaction.edit_original_response(embed=embed, view=buttons)
        else:
            await response.edit_message(embed=embed, view=buttons)

    async def show_panel(self, text: str, buttons: discord.ui.View | None) -> None:
        """A public message with its own buttons: the clicked one edited, else a new one."""
        response, self.sent = self.interaction.response, True
        if self.clicked_message is not None:
            if response.is_done():
                await self.interaction.edit_original_response(content=text, view=buttons)
            else:
                await response.edit_message(content=text, view=buttons)
        elif not response.is_done():
            await response.send_message(text, view=buttons or MISSING)
        elif self.placeholder is False:
            self.placeholder = None
            await self.interaction.edit_original_response(content=text, view=buttons)
        else:
            await self._drop_placeholder()
            await self.interaction.followup.send(text, view=buttons or MISSING)

    async def finish(self, fallback: str) -> None:
        """Make sure the interaction got an answer: a click silently, a command with `fallback`."""
        if self.clicked_message is not None:
            if not self.interaction.response.is_done():
                await self.interaction.response.defer()
        elif not self.sent:
            await self.say(fallback, ephemeral=True)


async def within_budget(work: Awaitable[Reply], defer: Callable[[], Awaitable[None]]) -> Reply:
    """The reply of `work`; when it takes longer than the budget, the interaction is deferred."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=ANSWER_BUDGET)
    if not done:
        try:
            await defer()
        except discord.HTTPException:
            log.warning("could not defer a slow interaction")
    return await task


async def answer(
    interaction: Interaction, manager: GameManager, call: Call, *, public: bool = False
) -> None:
    """Run one command or click through the manager and show its reply."""
    started = time.perf_counter()
    responder, ctx = Responder(interaction), context_for(interaction)
    try:
        reply = await within_budget(call(ctx), lambda: responder.defer(ephemeral=not public))
        if reply.replayed:
            # The same interaction delivered again (its id is the request id): Discord takes
            # one answer per interaction, and the delivery that applied it gives that answer.
            log.info("interaction %s delivered again: its first delivery answers", interaction.id)
            return
        await deliver(responder, manager, ctx, reply)
    except discord.HTTPException as error:
        # e.g. a slow first answer raced by Discord's own retry: it refuses the second answer
        log.warning("interaction %s not answered: %s", interaction.id, error)
    except Exception:
        log.exception("interaction %s failed", interaction.id)
        await _apologise(responder, ctx)
    log.debug("interaction %s answered in %.1f ms", interaction.id, _ms_since(started))


async def _apologise(responder: Responder, ctx: Context) -> None:
    """A bug must still leave the user an answer rather than Discord's "did not respond"."""
    try:
        await responder.say(t(ctx.locale or "en", "error.generic"), ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about the failure")


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000


async def press(interaction: Interaction, manager: GameManager, custom_id: str) -> None:
    """A game button: the manager checks who may press it and whether it is current."""
    await answer(interaction, manager, lambda ctx: manager.handle(ctx, Click(custom_id)))


async def deliver(responder: Responder, manager: GameManager, ctx: Context, reply: Reply) -> None:
    """The game message first, then private text, then public summaries."""
    fallback = None
    if reply.game is not None:
        fallback = await show_game(responder, manager, ctx, reply.game)
    if reply.private:
        await responder.say(reply.private, ephemeral=True)
    texts = await manager.publishable(ctx.scope, reply)
    if reply.buttons and texts:  # a leaderboard page with its Previous / Next
        await responder.show_panel(texts[0], row_buttons(reply.buttons))
        texts = texts[1:]
    for text in texts:  # round and match summaries carry their Review button
        await responder.say(text, ephemeral=False, buttons=row_buttons(reply.buttons_under(text)))
    await responder.finish(fallback or "✅")


async def show_game(
    responder: Responder, manager: GameManager, ctx: Context, view: GameView
) -> str | None:
    """Edit the clicked game message, post a new one, or edit it in the channel.

    Returns the private note for a command that changed a game shown elsewhere.
    """
    embed, buttons = game_embed(view), game_buttons(view)
    clicked = responder.clicked_message
    data: dict[str, object] = dict(responder.interaction.data or {})
    pressed = str(data.get("custom_id", ""))
    if clicked is not None and not belongs_to(pressed, view.game_id):
        clicked = None  # a finished match's Rematch: the new lobby gets a message of its own
    if clicked is not None and view.message in ("", str(clicked)):
        await responder.update_clicked(embed, buttons)
        if not view.message:
            await remember_message(manager, ctx.scope, view.channel, str(clicked))
        return None
    if not view.message:
        # However often the command that opened the game is delivered, it is posted once.
        posted, ours = await manager.post_game_once(
            ctx.scope, f"{view.game_id}:", lambda: _post_id(responder, embed, buttons)
        )
        if ours:
            await remember_message(manager, ctx.scope, view.channel, posted)
        return None
    client = responder.interaction.client
    message = await show_in_channel(client, manager, ctx.scope, view)
    link = jump_url(responder.interaction.guild_id, view.channel, message)
    return t(await manager.private_lang(ctx), "discord.updated", link=link)


async def _post_id(
    responder: Responder, embed: discord.Embed, buttons: discord.ui.View | None
) -> str:
    return str(await responder.post(embed, buttons))
