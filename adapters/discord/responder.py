"""Answering one interaction: its first answer is the response, the rest are follow-ups.

Discord drops an interaction that gets no answer within 3 seconds; a slow one is deferred first
(a "thinking" message, or for a click nothing visible), and the answer then edits or replaces
that placeholder.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.utils import MISSING

from adapters.discord.render import split_text

Interaction = discord.Interaction[Any]


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

    async def post(
        self, embed: discord.Embed, buttons: discord.ui.View | None, files: list[discord.File]
    ) -> int:
        """A new public message with the game (and its picture, in `files`); returns its id."""
        response, self.sent = self.interaction.response, True
        if not response.is_done():
            callback = await response.send_message(
                embed=embed, view=buttons or MISSING, files=files or MISSING
            )
            if callback is not None and callback.message_id is not None:
                return callback.message_id
            return (await self.interaction.original_response()).id
        if self.placeholder is False:
            self.placeholder = None
            edited = await self.interaction.edit_original_response(
                embed=embed, view=buttons, attachments=files
            )
            return edited.id
        await self._drop_placeholder()
        sent = await self.interaction.followup.send(
            embed=embed, view=buttons or MISSING, files=files or MISSING, wait=True
        )
        return sent.id

    async def post_private(self, embed: discord.Embed, buttons: discord.ui.View | None) -> None:
        """A new ephemeral message with the game (a daily challenge): only the user sees it."""
        response, self.sent = self.interaction.response, True
        if not response.is_done():
            await response.send_message(embed=embed, view=buttons or MISSING, ephemeral=True)
        elif self.placeholder is True:
            self.placeholder = None
            await self.interaction.edit_original_response(embed=embed, view=buttons)
        else:
            await self._drop_placeholder()
            await self.interaction.followup.send(
                embed=embed, view=buttons or MISSING, ephemeral=True
            )

    async def update_clicked(
        self, embed: discord.Embed, buttons: discord.ui.View | None, files: list[discord.File]
    ) -> None:
        """Edit the message whose button was pressed; `files` become its only attachments."""
        response, self.sent = self.interaction.response, True
        if response.is_done():
            await self.interaction.edit_original_response(
                embed=embed, view=buttons, attachments=files
            )
        else:
            await response.edit_message(embed=embed, view=buttons, attachments=files)

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
