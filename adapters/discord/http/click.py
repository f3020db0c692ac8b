"""A game button clicked over HTTP, answered from the interaction's JSON.

The hot interaction of the HTTP mode: a click on a game message. Its custom id is the core's
command, its JSON names who pressed it where, and the usual answer is the game message edited
in place (type 7), written from the screen's plain JSON (adapters/discord/screen.py), so a click
builds none of discord.py's `Interaction`, `Message`, `View` or `Embed` objects. Whatever else
a reply holds (a private line, a summary, a picture to upload, a game message elsewhere, a
deferral's edit) goes through the discord.py surface as in the gateway mode, built only then,
and knowing the interaction has its answer already when it has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord.enums import InteractionResponseType

from adapters.discord.http.exchange import UPDATE_MESSAGE, Exchange, Json
from adapters.discord.interactions import PLATFORM, lang_of
from adapters.discord.publish import game_message
from adapters.discord.screen import embed_data, rows_data
from adapters.discord.surface import InteractionSurface
from adapters.pictures import PictureLinks
from core.game.numbers import is_digits
from core.service.api.delivery import GameMessage, Rows
from core.service.model.buttons import PREFIX
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.views import GameView

COMPONENT, BUTTON = 3, 2
MANAGE_GUILD = 1 << 5  # the permission that makes a member the server's admin here
NO_MENTIONS: Json = {"parse": []}  # as the client's allowed mentions: nobody pinged by an edit


def game_click(interaction: Json) -> str | None:
    """The custom id of a click on one of our buttons, or None for any other interaction."""
    data, message = interaction.get("data"), interaction.get("message")
    if interaction.get("type") != COMPONENT or not isinstance(data, dict):
        return None
    custom_id = data.get("custom_id")
    if data.get("component_type") != BUTTON or not isinstance(custom_id, str):
        return None
    if not custom_id.startswith(f"{PREFIX}:") or not isinstance(message, dict):
        return None
    return custom_id if is_digits(str(message.get("id"))) else None


def context_of(interaction: Json) -> Context | None:
    """Who acts where, as `interactions.context_for` reads it from discord.py's objects; None
    when the JSON names nobody (discord.py's own path then answers it)."""
    guild, member = interaction.get("guild_id"), interaction.get("member")
    user = member.get("user") if isinstance(member, dict) else interaction.get("user")
    if not isinstance(user, dict) or not is_digits(str(user.get("id"))):
        return None
    user_id, direct = str(user["id"]), not guild
    nick = member.get("nick") if isinstance(member, dict) else None
    rights = int(str(member.get("permissions") or 0)) if isinstance(member, dict) else 0
    channel = (interaction.get("channel") or {}).get("id") or interaction.get("channel_id")
    return Context(
        scope=Scope(PLATFORM, f"dm-{user_id}" if direct else str(guild)),
        channel=str(channel or user_id),
        user=user_id,
        name=str(nick or user.get("global_name") or user.get("username") or ""),
        locale=lang_of(str(interaction.get("locale") or "en-US")),
        admin=not direct and bool(rights & MANAGE_GUILD),
        request_id=str(interaction["id"]),
        direct=direct,
        mentions=True,
    )


class ClickSurface:
    """The `Surface` of one click over HTTP: the pressed message's edit is the JSON answer;
    anything else goes to discord.py's `InteractionSurface`, built on first use."""

    def __init__(
        self, interaction: Json, exchange: Exchange, pictures: PictureLinks | None,
        full: Callable[[], InteractionSurface],
    ) -> None:  # fmt: skip
        self.interaction, self.exchange, self.pictures = interaction, exchange, pictures
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
        if thin and self.exchange.give(self.update(view)):
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
