"""A game screen as Discord's own JSON: the embed and the rows of buttons as plain dicts.

The one text form of a screen for both modes: a click's answer is written from these dicts as
they are (no discord.py `Embed`, `View` or `Button` built per click), and the messages the bot
posts through discord.py's REST calls are built from them too (`render.game_embed`).
"""

from __future__ import annotations

from typing import Any

from adapters.pictures import PictureLinks
from core.service.model.views import DEADLINE, Button, ButtonStyle, GameView

Json = dict[str, Any]
MAX_ROWS = 5
MAX_PER_ROW = 5
DESCRIPTION_LIMIT = 4096  # characters in an embed's description
TITLE_LIMIT = 256
PICTURE_NAME = "board.png"
ACTION_ROW, BUTTON = 1, 2  # Discord's component types
# Discord's button styles, and the embed colours (discord.py's blurple, green, dark grey)
STYLES = {ButtonStyle.PRIMARY: 1, ButtonStyle.SECONDARY: 2, ButtonStyle.SUCCESS: 3,
          ButtonStyle.DANGER: 4}  # fmt: skip
LOBBY_COLOUR, PLAYING_COLOUR, OVER_COLOUR = 0x5865F2, 0x2ECC71, 0x607D8B


def countdown(deadline: int) -> str:
    """A time the Discord client counts down itself (`in 45 seconds`), so no edit ticks a clock."""
    return f"<t:{deadline}:R>" if deadline else ""


def clip(text: str, limit: int) -> str:
    """The text, cut with an ellipsis if it is longer than `limit`."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def embed_data(view: GameView, pictures: PictureLinks | None = None) -> Json:
    """The game message's embed: the board, the dice, whose turn, the deadline, the scores; its
    picture is the bot's signed link where it has a public address, else the attachment."""
    body = view.body.replace(DEADLINE, countdown(view.deadline))
    embed: Json = {"type": "rich", "title": view.title[:TITLE_LIMIT],
                   "description": clip(body, DESCRIPTION_LIMIT), "color": colour(view)}  # fmt: skip
    if view.picture:
        url = pictures.url(view.picture) if pictures else f"attachment://{PICTURE_NAME}"
        embed["image"] = {"url": url}
    return embed


def rows_data(rows: tuple[tuple[Button, ...], ...]) -> list[Json]:
    """Rows of core buttons as Discord's action rows (at most five rows of five)."""
    return [
        {"type": ACTION_ROW, "components": [_button(button) for button in line[:MAX_PER_ROW]]}
        for line in rows[:MAX_ROWS]
    ]


def _button(button: Button) -> Json:
    return {"type": BUTTON, "style": STYLES[button.style], "label": button.label,
            "custom_id": button.action_id}  # fmt: skip


def colour(view: GameView) -> int:
    if view.over:
        return OVER_COLOUR
    return LOBBY_COLOUR if is_lobby(view) else PLAYING_COLOUR


def is_lobby(view: GameView) -> bool:
    return any(button.action_id.startswith("stb:join:") for row in view.rows for button in row)
