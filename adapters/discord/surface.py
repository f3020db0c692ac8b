"""One interaction as a `Surface`: what the shared delivery shows goes into its answer.

A click on the game message edits that message in the interaction's own answer; a new game
message is the response to a slash command (or a follow-up); a game whose message is elsewhere
in the channel is edited (or posted anew, if it was deleted) through the channel's REST API, and
the interaction's answer then links to it.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from adapters.discord.buttons import game_buttons, row_buttons
from adapters.discord.publish import ChannelSurface, game_message
from adapters.discord.render import game_embed, game_files, jump_url, pictures_of
from adapters.discord.responder import Responder
from adapters.pictures import PictureLinks
from core.service.api.delivery import GameMessage, Rows
from core.service.model.views import GameView


@dataclass(slots=True)
class InteractionSurface:
    responder: Responder
    channel: ChannelSurface  # for a game message that is not the pressed one
    link: str = ""  # to the game message, when it was shown through the channel
    private_first: bool = True  # the user's own answer is the interaction's response

    @property
    def pictures(self) -> PictureLinks | None:
        return pictures_of(self.responder.interaction.client)

    @property
    def clicked(self) -> str:
        message = self.responder.clicked_message
        return "" if message is None else str(message)

    @property
    def pressed(self) -> str:
        data: dict[str, object] = dict(self.responder.interaction.data or {})
        return str(data.get("custom_id", ""))

    async def locate(self, view: GameView, clicked: str) -> GameMessage:
        return game_message(view, clicked)

    async def edit_game(self, view: GameView, message: str) -> bool:
        if message == self.clicked:
            await self.responder.update_clicked(*self._game(view))
            return True
        if not await self.channel.edit_game(view, message):
            return False
        self._shown_elsewhere(view, message)
        return True

    async def post_game(self, view: GameView) -> str:
        if view.message:  # the game's message was deleted: it comes back in the channel
            posted = await self.channel.post_game(view)
            self._shown_elsewhere(view, posted)
            return posted
        sent = await self.responder.post(*self._game(view))
        return str(sent)

    async def show_private_game(self, view: GameView) -> None:
        """A click on the private (ephemeral) message edits it through the interaction; a
        command answers with a new ephemeral message."""
        embed, buttons, files = self._game(view)
        if self.clicked:
            await self.responder.update_clicked(embed, buttons, files)
        else:
            await self.responder.post_private(embed, buttons)

    async def show_panel(self, text: str, rows: Rows) -> None:
        await self.responder.show_panel(text, row_buttons(rows))

    async def post_public(self, text: str, rows: Rows) -> None:
        await self.responder.say(text, ephemeral=False, buttons=row_buttons(rows))

    async def answer_private(self, text: str) -> None:
        await self.responder.say(text, ephemeral=True)

    def _game(
        self, view: GameView
    ) -> tuple[discord.Embed, discord.ui.View | None, list[discord.File]]:
        """The game message's embed, buttons and attachments (none when the picture is linked)."""
        pictures = self.pictures
        return game_embed(view, pictures), game_buttons(view), game_files(view, pictures)

    def _shown_elsewhere(self, view: GameView, message: str) -> None:
        self.link = jump_url(self.responder.interaction.guild_id, view.channel, message)
