"""The `Surface` of a game click answered from its JSON, in either mode.

The hot interaction is a click on a game message, and its usual answer is that message edited
in place (type 7), written from the screen's plain JSON (adapters/discord/screen.py), so a click
builds none of discord.py's `Interaction`, `Message`, `View` or `Embed` objects. Whatever else
a reply holds (a private line, a summary, a picture to upload, a game message elsewhere, a
deferral's edit) goes through discord.py's `InteractionSurface`, built only then, and knowing
the interaction has its answer already when it has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord.enums import InteractionResponseType

from adapters.discord.click.answers import UPDATE_MESSAGE, FirstAnswer, Json
from adapters.discord.publish import game_message
from adapters.discord.screen import embed_data, rows_data
from adapters.discord.surface import InteractionSurface
from adapters.pictures import PictureLinks
from core.service.api.delivery import GameMessage, Rows
from core.service.model.views import GameView

NO_MENTIONS: Json = {"parse": []}  # as the client's allowed mentions: nobody pinged by an edit


class ClickSurface:
    """The `Surface` of one click: the pressed message's edit is the JSON answer;
    anything else goes to discord.py's `InteractionSurface`, built on first use."""

    def __init__(
        self, interaction: Json, first: FirstAnswer, pictures: PictureLinks | None,
        full: Callable[[], InteractionSurface],
    ) -> None:  # fmt: skip
        self.interaction, self.first, self.pictures = interaction, first, pictures
        self.private_first = True
        self.clicked = str(interaction["message"]["id"])
        self.pressed = str(interaction["data"]["custom_id"])
        self._full = full
        self.handed_over = False  # discord.py's surface has shown something: it answers now

    async def locate(self, view: GameView, clicked: str) -> GameMessage:
        return game_message(view, clicked)

    async def edit_game(self, view: GameView, message: str) -> bool:
        uploads = view.picture and self.pictures is None  # an upload needs discord.py's webhook
        thin = message == self.clicked and not uploads and not self.handed_over
        if thin and await self.first.give(self.update(view)):
            return True
        return await self.full().edit_game(view, message)

    def update(self, view: GameView) -> Json:
        """The type-7 answer that shows `view` on the pressed message (its picture linked)."""
        data = {"embeds": [embed_data(view, self.pictures)], "components": rows_data(view.rows),
                "attachments": [], "allowed_mentions": NO_MENTIONS}  # fmt: skip
        return {"type": UPDATE_MESSAGE, "data": data}

    def full(self) -> InteractionSurface:
        self.handed_over = True
        return self._full()

    async def post_game(self, view: GameView) -> str:
        return await self.full().post_game(view)

    async def show_private_game(self, view: GameView) -> None:
        await self.full().show_private_game(view)

    async def show_panel(self, text: str, rows: Rows) -> None:
        await self.full().show_panel(text, rows)

    async def post_public(self, text: str, rows: Rows) -> None:
        await self.full().post_public(text, rows)

    async def answer_private(self, text: str) -> None:
        await self.full().answer_private(text)


def answered_as(interaction: discord.Interaction[Any], answer: Json | None) -> None:
    """Tell discord.py's interaction the answer it already has (it then edits or follows up)."""
    if answer is not None:
        kind = InteractionResponseType(int(answer["type"]))
        interaction.response._response_type = kind  # discord.py keeps no setter
