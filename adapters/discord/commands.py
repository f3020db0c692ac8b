"""`/shutbox` and its subcommands: each one translates its options and calls the manager."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import AppCommandContext, Range

from adapters.discord.interactions import Call, answer
from adapters.discord.options import (
    CHIPS_LIMIT,
    GRANT_LIMIT,
    MATCH_OPTIONS,
    PLAYERS_MAX,
    ROUNDS_MAX,
    RULES_OPTIONS,
    SEASON_DAYS_MAX,
    SEASON_MAX,
    TIMER_MAX,
    TIMER_MIN,
    localized,
    match_format,
    setting_text,
    subcommand,
)
from adapters.discord.translator import text
from adapters.discord.values import standing_of
from core.service.api.commands import (
    Audit,
    Balance,
    Challenge,
    Command,
    Configure,
    Daily,
    Give,
    Grant,
    Help,
    Join,
    Leaderboard,
    Leave,
    Odds,
    Rank,
    Review,
    Rules,
    Season,
    Solo,
    Start,
    Stats,
    Stop,
    Web,
)
from core.service.api.service import Service
from core.service.features.gifts import Recipient
from core.service.model.context import Context
from core.service.model.settings import StartOptions
from core.service.model.views import Reply
from core.text.i18n import t

GROUP = "shutbox"
SUBCOMMANDS = (
    "start", "solo", "join", "leave", "stop", "leaderboard", "stats", "balance", "daily",
    "challenge", "rules", "odds", "config", "grant", "give", "rank", "review", "season", "audit",
    "web",
    "help",
)  # fmt: skip
CONFIG_OPTIONS = (
    "lang", "style", "preset", "start_chips", "daily", "timer", "max_players", "fair",
    "season_days",
)  # fmt: skip

Interaction = discord.Interaction[Any]
Rounds = Range[int, 1, ROUNDS_MAX]
Timer = Range[int, TIMER_MIN, TIMER_MAX]
Chips = Range[int, 0, CHIPS_LIMIT]
Players = Range[int, 1, PLAYERS_MAX]
GrantAmount = Range[int, -GRANT_LIMIT, GRANT_LIMIT]
SeasonNumber = Range[int, 1, SEASON_MAX]
SeasonDays = Range[int, 0, SEASON_DAYS_MAX]


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
    keys = [f"discord.command.{name}.name" for name in SUBCOMMANDS]
    pairs = [(t(lang, key), t("en", key)) for key in keys]
    return ", ".join(f"/{GROUP} {own} ({english})" for own, english in pairs if own != english)


class ShutboxCommands(app_commands.Group):
    """The one slash command group; it holds no game logic, only option translation."""

    def __init__(self, manager: Service) -> None:
        super().__init__(
            name=GROUP,
            description=text("discord.group.description"),
            allowed_contexts=AppCommandContext(guild=True, dm_channel=True),
        )
        self.manager = manager

    @subcommand("start")
    @localized("start", *RULES_OPTIONS, *MATCH_OPTIONS, "stakes")
    async def start(
        self, interaction: Interaction, preset: str | None = None, tiles: int | None = None,
        dice: int | None = None, close: str | None = None, last_die: bool | None = None,
        hard: bool | None = None, scoring: str | None = None, format: str | None = None,
        rounds: Rounds | None = None, timer: Timer | None = None, hints: bool | None = None,
        fair: bool | None = None, stakes: str | None = None,
    ) -> None:  # fmt: skip
        options = StartOptions(
            preset=preset, tiles=tiles, dice=dice, close=close, last_die=last_die, hard=hard,
            scoring=scoring, format=match_format(format, rounds), stakes=stakes, timer=timer,
            hints=hints, fair=fair,
        )  # fmt: skip
        await self._run(interaction, Start(options), public=True)

    @subcommand("solo")
    @localized("solo", *RULES_OPTIONS, *MATCH_OPTIONS)
    async def solo(
        self, interaction: Interaction, preset: str | None = None, tiles: int | None = None,
        dice: int | None = None, close: str | None = None, last_die: bool | None = None,
        hard: bool | None = None, scoring: str | None = None, format: str | None = None,
        rounds: Rounds | None = None, timer: Timer | None = None, hints: bool | None = None,
        fair: bool | None = None,
    ) -> None:  # fmt: skip
        options = StartOptions(
            preset=preset, tiles=tiles, dice=dice, close=close, last_die=last_die, hard=hard,
            scoring=scoring, format=match_format(format, rounds), timer=timer, hints=hints,
            fair=fair,
        )  # fmt: skip
        await self._run(interaction, Solo(options), public=True)

    @subcommand("join")
    async def join(self, interaction: Interaction) -> None:
        await self._run(interaction, Join())

    @subcommand("leave")
    async def leave(self, interaction: Interaction) -> None:
        await self._run(interaction, Leave())

    @subcommand("stop")
    async def stop(self, interaction: Interaction) -> None:
        await self._run(interaction, Stop())

    @subcommand("leaderboard")
    @localized("leaderboard", "board", "preset", "season")
    async def leaderboard(
        self, interaction: Interaction, board: str | None = None, preset: str | None = None,
        season: SeasonNumber | None = None,
    ) -> None:  # fmt: skip
        command = Leaderboard(board or "wins", preset, season)
        await self._run(interaction, command, public=True, guild=True)

    @subcommand("stats")
    @localized("stats", "player", "all_seasons")
    async def stats(
        self, interaction: Interaction, player: discord.User | None = None,
        all_seasons: bool | None = None,
    ) -> None:  # fmt: skip
        user, name = (None, None) if player is None else (str(player.id), player.display_name)
        command = Stats(user, name, bool(all_seasons))
        await self._run(interaction, command, guild=True)

    @subcommand("balance")
    async def balance(self, interaction: Interaction) -> None:
        await self._run(interaction, Balance(), guild=True)

    @subcommand("daily")
    async def daily(self, interaction: Interaction) -> None:
        await self._run(interaction, Daily(), guild=True)

    @subcommand("challenge")
    async def challenge(self, interaction: Interaction) -> None:
        await self._run(interaction, Challenge(), guild=True)

    @subcommand("rules")
    @localized("rules", "preset")
    async def rules(self, interaction: Interaction, preset: str | None = None) -> None:
        await self._run(interaction, Rules(preset))

    @subcommand("odds")
    @localized("odds", "preset")
    async def odds(self, interaction: Interaction, preset: str | None = None) -> None:
        await self._run(interaction, Odds(preset))

    @subcommand("config")
    @localized("config", *CONFIG_OPTIONS)
    async def config(
        self, interaction: Interaction, lang: str | None = None, style: str | None = None,
        preset: str | None = None, start_chips: Chips | None = None, daily: Chips | None = None,
        timer: Timer | None = None, max_players: Players | None = None, fair: bool | None = None,
        season_days: SeasonDays | None = None,
    ) -> None:  # fmt: skip
        values = (lang, style, preset, start_chips, daily, timer, max_players, fair, season_days)
        given = dict(zip(CONFIG_OPTIONS, values, strict=True))
        changes = {key: setting_text(value) for key, value in given.items() if value is not None}
        await self._run(interaction, Configure(changes), guild=True)

    @subcommand("grant")
    @localized("grant", "player", "amount")
    async def grant(
        self, interaction: Interaction, player: discord.User, amount: GrantAmount
    ) -> None:
        command = Grant(str(player.id), player.display_name, amount, standing_of(player))
        await self._run(interaction, command, guild=True)

    @subcommand("give")
    @localized("give", "player", "amount")
    async def give(self, interaction: Interaction, player: discord.User, amount: int) -> None:
        recipient = Recipient(str(player.id), player.display_name, standing_of(player))
        await self._run(interaction, Give(recipient, amount), guild=True)

    @subcommand("rank")
    @localized("rank", "player")
    async def rank(self, interaction: Interaction, player: discord.User | None = None) -> None:
        command = Rank() if player is None else Rank(str(player.id), player.display_name)
        await self._run(interaction, command, public=True, guild=True)

    @subcommand("review")
    async def review(self, interaction: Interaction) -> None:
        await self._run(interaction, Review(), guild=True)

    @subcommand("season")
    @localized("season", "action", "reset_chips")
    async def season(
        self, interaction: Interaction, action: str | None = None, reset_chips: bool | None = None
    ) -> None:
        end = action == "end"
        command = Season(end, reset_chips)
        await self._run(interaction, command, public=True, guild=True)

    @subcommand("audit")
    async def audit(self, interaction: Interaction) -> None:
        await self._run(interaction, Audit(), guild=True)

    @subcommand("web")
    @localized("web", "switch")
    async def web(self, interaction: Interaction, switch: str | None = None) -> None:
        await self._run(interaction, Web(switch or ""), guild=True)

    @subcommand("help")
    async def help(self, interaction: Interaction) -> None:
        await answer(interaction, self.manager, self._help)

    async def _run(
        self, interaction: Interaction, command: Command, *, public: bool = False,
        guild: bool = False,
    ) -> None:  # fmt: skip
        """Answer with what the manager replies to `command`; `guild` commands say so in a DM."""

        async def call(ctx: Context) -> Reply:
            return await self.manager.handle(ctx, command)

        await answer(interaction, self.manager, guild_only(call) if guild else call, public=public)

    async def _help(self, ctx: Context) -> Reply:
        """The core's help, plus the command names a Danish or Norwegian client shows."""
        reply = await self.manager.handle(ctx, Help())
        names = command_names(ctx.locale)
        if reply.private is None or not names:
            return reply
        lang = ctx.locale or "en"
        return Reply(private=f"{reply.private}\n{t(lang, 'discord.help.names', names=names)}")
