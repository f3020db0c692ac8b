"""A bare Discord bot on the same library, the baseline of `bench_surface`: a plain
`discord.Client` whose `/shutbox solo` posts an embed with two rows of buttons, and whose
`DynamicItem` button edits that embed and its buttons in the interaction's response, as our
game message is edited, with no game behind it.

`python -m tests.bench.bare_discord --api-base URL --gateway URL --token T`
"""

from __future__ import annotations

import argparse
import re
from typing import Any

import discord
import yarl
from discord import app_commands

CLICKS_PER_GAME = 12
TILES = 9


def game_embed(clicks: int) -> discord.Embed:
    board = " ".join(f"`{n}`" if n > clicks % TILES else "`·`" for n in range(1, TILES + 1))
    embed = discord.Embed(title="Shut the Box", description=f"{board}\n🎲 ⚃ ⚂ = 7")
    embed.set_footer(text=f"Ann · click {clicks}")
    return embed


class BareButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                 template=r"bare:(?P<clicks>[0-9]+):(?P<row>[0-9]):(?P<n>[0-9])"):  # fmt: skip
    """A button that knows how many clicks its game has had."""

    def __init__(self, clicks: int, row: int, n: int) -> None:
        self.clicks = clicks
        super().__init__(discord.ui.Button(
            label=f"{n}+{row}", custom_id=f"bare:{clicks}:{row}:{n}", row=row,
            style=discord.ButtonStyle.primary,
        ))  # fmt: skip

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> BareButton:  # fmt: skip
        return cls(int(match["clicks"]), int(match["row"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        clicks = self.clicks + 1
        await interaction.response.edit_message(embed=game_embed(clicks), view=game_view(clicks))


def game_view(clicks: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if clicks < CLICKS_PER_GAME:
        for row in range(2):
            for n in range(1, 5):
                view.add_item(BareButton(clicks, row, n))
    return view


class BareClient(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none())
        self.tree = app_commands.CommandTree(self)
        group = app_commands.Group(name="shutbox", description="Shut the Box")

        @group.command(name="solo", description="A game alone")
        async def solo(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message(embed=game_embed(0), view=game_view(0))

        self.tree.add_command(group)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(BareButton)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--api-base", required=True)
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--token", required=True)
    args = parser.parse_args()
    discord.http.Route.BASE = args.api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    BareClient().run(args.token, log_handler=None)


if __name__ == "__main__":
    main()
