"""The game message's buttons: `DynamicItem`s whose custom id alone finds the game.

A button's custom id is the core's `stb:<verb>:<game>:<version>:<arg>`, and the core's own
grammar of it (`BUTTON_ID`) is the template, so a click on a message posted before the bot
restarted is still dispatched (the template is registered with `client.add_dynamic_items`) and
the manager checks the game and version it names.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, cast, runtime_checkable

import discord

from adapters.discord.screen import MAX_PER_ROW, MAX_ROWS, STYLES
from core.service.model.buttons import BUTTON_ID, PREFIX
from core.service.model.views import Button, GameView

TEMPLATE = BUTTON_ID

UiButton = discord.ui.Button[discord.ui.View]


@runtime_checkable
class ButtonPresser(Protocol):
    """What the client does with a click (kept apart so this module needs no client import)."""

    async def press(self, interaction: discord.Interaction[Any], custom_id: str) -> None: ...


class GameButton(discord.ui.DynamicItem[UiButton], template=TEMPLATE):
    """One button of a game message."""

    def __init__(self, button: UiButton) -> None:
        super().__init__(button)

    @classmethod
    def make(cls, custom_id: str, label: str, style: discord.ButtonStyle, row: int) -> GameButton:
        return cls(discord.ui.Button(label=label, style=style, custom_id=custom_id, row=row))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        shown = cast(UiButton, item)
        return cls.make(match.group(0), shown.label or "", shown.style, shown.row or 0)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client = interaction.client
        if isinstance(client, ButtonPresser):
            await client.press(interaction, self.custom_id)


# Any other `stb:` id (forged, or with digits our ids never carry, e.g. `²` or a tenth digit):
# without this, discord.py would drop the click unanswered and the user would see "interaction
# failed". `\Z`, not `$`: a real id followed by a newline is forged too.
FORGED = re.compile(rf"(?!(?:{TEMPLATE.pattern})\Z){PREFIX}:.*", re.DOTALL)


class ForgedButton(GameButton, template=FORGED):
    """A click on an `stb:` id no game button has: answered privately as an outdated button."""


def game_buttons(view: GameView) -> discord.ui.View | None:
    """The buttons of a game message, or None when it has none (the game is over)."""
    return row_buttons(view.rows)


def row_buttons(rows: tuple[tuple[Button, ...], ...]) -> discord.ui.View | None:
    """Rows of core buttons as a Discord view, or None when there are none."""
    if not rows:
        return None
    buttons = discord.ui.View(timeout=None)
    for row, line in enumerate(rows[:MAX_ROWS]):
        for button in line[:MAX_PER_ROW]:
            style = discord.ButtonStyle(STYLES[button.style])
            buttons.add_item(GameButton.make(button.action_id, button.label, style, row))
    return buttons
