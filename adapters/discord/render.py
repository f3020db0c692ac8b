"""Core views as Discord shows them: an embed for the game message, text cut to Discord's limits."""

from __future__ import annotations

import io

import discord

from adapters.pictures import PictureLinks
from core.service.model.views import DEADLINE, GameView
from core.text.drawn import DrawnBoard
from core.text.picture import board_png

MESSAGE_LIMIT = 2000  # characters in a message's content
DESCRIPTION_LIMIT = 4096  # characters in an embed's description
TITLE_LIMIT = 256
ALT_TEXT_LIMIT = 1024  # characters of an attachment's description
PICTURE_NAME = "board.png"

LOBBY_COLOUR = discord.Colour.blurple()
PLAYING_COLOUR = discord.Colour.green()
OVER_COLOUR = discord.Colour.dark_grey()


def countdown(deadline: int) -> str:
    """A time the Discord client counts down itself (`in 45 seconds`), so no edit ticks a clock."""
    return f"<t:{deadline}:R>" if deadline else ""


def game_embed(view: GameView, pictures: PictureLinks | None = None) -> discord.Embed:
    """The game message's embed: the board, the dice, whose turn, the deadline, the scores; its
    picture is the bot's signed link where it has a public address, else the attachment."""
    body = view.body.replace(DEADLINE, countdown(view.deadline))
    embed = discord.Embed(
        title=view.title[:TITLE_LIMIT],
        description=clip(body, DESCRIPTION_LIMIT),
        colour=_colour(view),
    )
    if view.picture:
        url = pictures.url(view.picture) if pictures else f"attachment://{PICTURE_NAME}"
        embed.set_image(url=url)
    return embed


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


def _colour(view: GameView) -> discord.Colour:
    if view.over:
        return OVER_COLOUR
    return LOBBY_COLOUR if _is_lobby(view) else PLAYING_COLOUR


def _is_lobby(view: GameView) -> bool:
    return any(button.action_id.startswith("stb:join:") for row in view.rows for button in row)


def clip(text: str, limit: int) -> str:
    """The text, cut with an ellipsis if it is longer than `limit`."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
