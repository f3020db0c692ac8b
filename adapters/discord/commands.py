"""`/shutbox` and its subcommands, one per entry of the subcommand table.

Each subcommand is made from its entry (core/service/pipeline/subcommands.py): its name and
description are catalog texts (`discord.command.<name>.*`), its options the entry's typed
options (adapters/discord/options.py), and its callback turns the values Discord gives into the
entry's command and answers with what the manager replies. A new entry needs no code here.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import AppCommandContext

from adapters.discord.interactions import Call, answer
from adapters.discord.options import typed
from adapters.discord.translator import text
from adapters.discord.values import standing_of
from core.service.api.commands import Command, Help
from core.service.api.service import Service
from core.service.features.gifts import Recipient
from core.service.model.context import Context
from core.service.model.views import Reply
from core.service.pipeline.subcommands import NAMES, SUBCOMMANDS
from core.service.pipeline.subcommands import Entry as Subcommand
from core.text.i18n import t

GROUP = "shutbox"

Interaction = discord.Interaction[Any]
Subcommands = app_commands.Command[Any, ..., None]


def guild_only(call: Call) -> Call:
    """Chips and leaderboards belong to a server: in a direct message, say so instead."""

    async def run(ctx: Context) -> Reply:
        if ctx.direct:
            return Reply(private=t(ctx.locale or "en", "discord.guild_only"))
        return await call(ctx)

    return run


def command_names(lang: str | None) -> str:
    """The subcommands as a Discord client in `lang` shows them, where they differ from English."""
    if lang is None:
        return ""
    keys = [f"discord.command.{name}.name" for name in NAMES]
    pairs = [(t(lang, key), t("en", key)) for key in keys]
    return ", ".join(f"/{GROUP} {own} ({english})" for own, english in pairs if own != english)


def given(value: object) -> object:
    """A value as the table's commands take it: a member Discord resolved is a `Recipient`."""
    if isinstance(value, discord.User | discord.Member):
        return Recipient(str(value.id), value.display_name, standing_of(value))
    return value


class ShutboxCommands(app_commands.Group):
    """The one slash command group; it holds no game logic, only option translation."""

    def __init__(self, manager: Service) -> None:
        super().__init__(
            name=GROUP,
            description=text("discord.group.description"),
            allowed_contexts=AppCommandContext(guild=True, dm_channel=True),
        )
        self.manager = manager
        for entry in SUBCOMMANDS:
            self.add_command(self._subcommand(entry))

    def _subcommand(self, entry: Subcommand) -> Subcommands:
        """The entry as a slash subcommand: its options typed, named and described."""

        async def run(interaction: Interaction, **options: Any) -> None:
            values = {name: given(value) for name, value in options.items()}
            await self._run(interaction, entry, entry.from_params(values))

        run.__qualname__ = run.__name__ = entry.name
        return app_commands.Command(
            name=text(f"discord.command.{entry.name}.name"),
            description=text(f"discord.command.{entry.name}.description"),
            callback=typed(entry.name, entry.params, run),
        )

    async def _run(self, interaction: Interaction, entry: Subcommand, command: Command) -> None:
        """Answer with what the manager replies to `command`: in the channel when the entry is
        public, and, for an entry that belongs to a server, saying so in a DM."""

        async def call(ctx: Context) -> Reply:
            return await self.manager.handle(ctx, command)

        async def help_(ctx: Context) -> Reply:
            assert isinstance(command, Help)
            return await self._help(ctx, command)

        chosen = help_ if isinstance(command, Help) else call
        run = guild_only(chosen) if entry.guild else chosen
        await answer(interaction, self.manager, run, public=entry.public)

    async def _help(self, ctx: Context, command: Help) -> Reply:
        """The core's help; its overview with the command names a Danish or Norwegian client
        shows."""
        reply = await self.manager.handle(ctx, command)
        names = command_names(ctx.locale)
        if reply.private is None or not names or command.topic:
            return reply
        lang = ctx.locale or "en"
        return Reply(private=f"{reply.private}\n{t(lang, 'discord.help.names', names=names)}")
