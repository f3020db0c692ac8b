"""Core views as Discord shows them: an embed for the game message, text cut to Discord's limits."""

from __future__ import annotations

import io

import discord

from adapters.discord.screen import PICTURE_NAME, clip, embed_data
from adapters.pictures import PictureLinks
from core.service.model.views import GameView
from core.text.drawn import DrawnBoard
from core.text.picture import board_png

MESSAGE_LIMIT = 2000  # characters in a message's content
ALT_TEXT_LIMIT = 1024  # characters of an attachment's description


def game_embed(view: GameView, pictures: PictureLinks | None = None) -> discord.Embed:
    """The game message's embed (`screen.embed_data`) for discord.py's REST calls."""
    return discord.Embed.from_dict(embed_data(view, pictures))


def game_files(view: GameView, pictures: PictureLinks | None = None) -> list[discord.File]:
    """The game message's one attachment: the board picture (image style), with the text board
    as its alternative text; none otherwise. An edit sends this list as the message's whole set
    of attachments, so each picture replaces the last instead of piling up beside it. With
    `pictures` (a public address) the embed links the picture and the list is empty."""
    if not view.picture or pictures is not None:
        return []
    png = board_png(DrawnBoard.from_token(view.picture))
    alt = clip(view.alt, ALT_TEXT_LIMIT) or None
    return [discord.File(io.BytesIO(png), filename=PICTURE_NAME, description=alt)]


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The text as messages of at most `limit` characters, cut between lines where possible."""
    parts: list[str] = []
    current = ""
    for line in _short_lines(text, limit):
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            parts.append(current)
            candidate = line
        current = candidate
    parts.append(current)
    return parts


def _short_lines(text: str, limit: int) -> list[str]:
    """The text's lines, any line longer than `limit` cut into pieces."""
    return [
        line[start : start + limit]
        for line in text.split("\n")
        for start in range(0, max(len(line), 1), limit)
    ]


def jump_url(guild_id: int | None, channel: str, message: str) -> str:
    """A link to a message that opens it in the Discord client."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel}/{message}"


def pictures_of(client: object) -> PictureLinks | None:
    """The client's picture links, if it has a public address (a bare discord.py client has
    none)."""
    found = getattr(client, "pictures", None)
    return found if isinstance(found, PictureLinks) else None
