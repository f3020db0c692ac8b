"""The Discord client: slash commands, persistent game buttons, and shards, around one manager."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.webhook.async_ import async_context

from adapters.discord.buttons import ForgedButton, GameButton
from adapters.discord.calls import show_calls
from adapters.discord.click.answers import Callback, FirstAnswer
from adapters.discord.click.press import press_json
from adapters.discord.click.read import context_of, game_click
from adapters.discord.commands import ShutboxCommands
from adapters.discord.http.exchange import Exchange
from adapters.discord.interactions import follow_ups, press
from adapters.discord.publish import BOT_ACTOR, show_timeout
from adapters.discord.render import split_text
from adapters.discord.tables import open_tables, post_elsewhere
from adapters.discord.translator import CatalogTranslator
from adapters.discord.values import refusal
from adapters.inflight import InFlight
from adapters.pictures import PictureLinks
from core.game.numbers import is_digits
from core.service.api.service import Service
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.views import Reply
from core.text.i18n import t
from core.text.picture import warm as warm_pictures

log = logging.getLogger(__name__)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord routes a guild to (its documented sharding formula)."""
    return (guild_id >> 22) % shard_count


IDENTIFY_PAUSE = 5.0  # Discord allows one IDENTIFY per 5 s (per concurrency bucket)
LOGIN_PAUSE = 2.0  # seconds before the second attempt, doubling up to LOGIN_PAUSE_MAX
LOGIN_PAUSE_MAX = 30.0


class DiscordUnreachable(Exception):
    """Discord did not answer the login after every attempt; `str()` says why, in one line."""


def point_at(api_base: str, gateway_url: str) -> None:
    """Send discord.py's REST calls and its gateway connection to these URLs (a proxy, a fake)."""
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


@dataclass(frozen=True, slots=True)
class ClientOptions:
    shard_count: int | None = None  # None: as many as Discord recommends (GET /gateway/bot)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs; None: all
    dev_guild: int | None = None  # sync the commands to this guild only (instant updates)
    sync_commands: bool = True
    guild_ready_timeout: float = 2.0
    identify_pause: float = IDENTIFY_PAUSE
    # None: keep trying (readiness stays 503 until connected); a number: give up after it
    login_attempts: int | None = None
    login_pause: float = LOGIN_PAUSE
    gateway: bool = True  # False: interactions arrive over HTTP (adapters/discord/http/)
    pictures: PictureLinks | None = None  # board pictures by link; None: uploaded with each edit


def _repeated_login(record: logging.LogRecord) -> bool:
    """After the first attempt, discord.py's "logging in" line adds nothing to our retry line."""
    return not record.getMessage().startswith("logging in using")


class ShutboxClient(discord.AutoShardedClient):
    """Holds no game state: every command and click goes to the manager, and back as a view."""

    def __init__(
        self,
        manager: Service,
        options: ClientOptions | None = None,
        on_connection: Callable[[bool], None] | None = None,
        inflight: InFlight | None = None,
        report: Callable[[str, str], None] | None = None,
    ) -> None:
        self.options = options or ClientOptions()
        # the interactions being answered, which a shutdown waits for
        self.inflight = inflight if inflight is not None else InFlight()
        self.report = report or (lambda call, reason: None)  # deliveries that failed
        self.on_connection = on_connection or (lambda connected: None)  # health reporting
        # the bot never joins voice: spare the logs discord.py's warnings about voice libraries
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        shards = self.options.shard_ids
        super().__init__(
            # interactions need no intent; `guilds` (not privileged) keeps discord.py's guild
            # state sound (without it the library warns of state issues)
            intents=discord.Intents(guilds=True),
            shard_count=self.options.shard_count,
            # None runs every shard; discord.py reads it so, though its stub says list[int]
            shard_ids=list(shards) if shards is not None else None,  # type: ignore[arg-type]
            guild_ready_timeout=self.options.guild_ready_timeout,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.manager = manager
        self._clicks: set[asyncio.Task[None]] = set()  # game clicks being answered
        # Over the gateway too a game click is read from its JSON, before discord.py builds
        # its objects (the gateway's dispatch looks its handlers up in this dict)
        self._connection.parsers["INTERACTION_CREATE"] = self._interaction_create
        self.tree: app_commands.CommandTree[ShutboxClient] = app_commands.CommandTree(self)
        self.tree.add_command(ShutboxCommands(manager))
        self.tree.on_error = self._on_command_error  # type: ignore[method-assign]
        self.tree.interaction_check = self._typed_options  # type: ignore[method-assign]

    async def log_in(self, token: str) -> None:
        """`login`, tried again with a growing pause while Discord cannot be reached: one log
        line per retry, for as long as it takes (or `login_attempts`, then
        `DiscordUnreachable`). A rejected token (`LoginFailure`) is final at once: trying it
        again cannot help."""
        discord_log = logging.getLogger("discord.client")
        pause, total = self.options.login_pause, self.options.login_attempts
        reason: str | None = "no attempt made"
        try:
            for attempt in itertools.count(1):
                reason = await self._try_login(token)
                if reason is None:
                    return
                if attempt == total:
                    break
                of = f" of {total}" if total else ""
                log.warning("Discord can't be reached (%s); trying again in %g s (attempt %d%s)",
                            reason, pause, attempt + 1, of)  # fmt: skip
                discord_log.addFilter(_repeated_login)
                await asyncio.sleep(pause)
                pause = min(pause * 2, LOGIN_PAUSE_MAX)
        finally:
            discord_log.removeFilter(_repeated_login)
        raise DiscordUnreachable(f"Discord can't be reached ({reason}); gave up after {total} "
                                 "attempts")  # fmt: skip

    async def _try_login(self, token: str) -> str | None:
        """None once logged in; else why Discord could not be reached, in one line."""
        try:
            await self.login(token)
        except (aiohttp.ClientError, OSError, TimeoutError, discord.DiscordServerError) as error:
            return f"{type(error).__name__}: {error}".splitlines()[0]
        return None

    async def setup_hook(self) -> None:
        if self.shard_count is None and self.options.gateway:
            # Only the recommended count: discord.py would also take the gateway URL from this
            # answer, and the settings' DISCORD_GATEWAY_URL (see `point_at`) must win.
            self.shard_count, _, _ = await self.http.get_bot_gateway()
        self.add_dynamic_items(GameButton, ForgedButton)
        # The board picture's sprites take most of a second to draw: in a thread, now, rather
        # than on the event loop when the first game begins
        self._warming = asyncio.create_task(asyncio.to_thread(warm_pictures))
        await self.tree.set_translator(CatalogTranslator())
        if self.options.sync_commands:
            await self.sync_commands()

    async def sync_commands(self) -> None:
        """Register `/shutbox` (with its translations) globally, or in the development guild."""
        guild = discord.Object(self.options.dev_guild) if self.options.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        where = f"to guild {guild.id}" if guild else "globally"
        log.info("registered %d slash command(s) %s", len(synced), where)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not initial:
            await asyncio.sleep(self.options.identify_pause)

    async def on_connect(self) -> None:
        self.on_connection(True)

    async def on_resumed(self) -> None:
        self.on_connection(True)

    async def on_disconnect(self) -> None:
        self.on_connection(False)

    @property
    def pictures(self) -> PictureLinks | None:
        return self.options.pictures

    def receive(self, interaction: dict[str, Any]) -> None:
        """An interaction that arrived over HTTP (its `Exchange` is the webhook adapter)."""
        exchange = async_context.get()
        if not isinstance(exchange, Exchange) or not self._clicked(interaction, exchange):
            self._connection.parse_interaction_create(interaction)  # type: ignore[arg-type]

    def _interaction_create(self, interaction: dict[str, Any]) -> None:
        """An interaction that arrived over the gateway (INTERACTION_CREATE)."""
        callback = Callback(interaction, self.http)
        dispatched = async_context.set(callback)  # the click's task inherits it
        try:
            if self._clicked(interaction, callback):
                return
        finally:
            async_context.reset(dispatched)
        self._connection.parse_interaction_create(interaction)  # type: ignore[arg-type]

    def _clicked(self, interaction: dict[str, Any], first: FirstAnswer) -> bool:
        """A game click is answered from its JSON (adapters/discord/click/); False for anything
        else, which discord.py dispatches (its command tree, our dynamic buttons)."""
        custom_id = game_click(interaction)
        ctx = context_of(interaction) if custom_id is not None else None
        if custom_id is None or ctx is None:
            return False
        task = asyncio.create_task(press_json(self, first, interaction, ctx, custom_id))
        self._clicks.add(task)  # a task nobody holds may be collected before it ends
        task.add_done_callback(self._clicks.discard)
        return True

    async def follow_up(self, ctx: Context, reply: Reply) -> None:
        """What the bot posts on its own after a click's answer: turn calls, standings, tables."""
        await follow_ups(self, self.manager, ctx, reply)

    def interaction_of(self, data: dict[str, Any]) -> discord.Interaction[Any]:
        """discord.py's interaction for JSON received over HTTP (not dispatched)."""
        return discord.Interaction(data=data, state=self._connection)  # type: ignore[arg-type]

    async def press(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A game button was clicked (see `buttons.GameButton`)."""
        await press(interaction, self.manager, custom_id)

    def owns(self, scope: Scope) -> bool:
        """Whether the guild is on a shard this process runs: only its process sweeps it."""
        if self.shard_ids is None or not self.shard_count or not is_digits(scope.server):
            return True
        return shard_of(int(scope.server), self.shard_count) in self.shard_ids

    async def show_timeout(self, scope: Scope, reply: Reply) -> None:
        """A deadline passed (the runtime's sweep): show the game as the manager moved it on."""
        await show_timeout(self, self.manager, scope, reply, self.report)
        bot = Context(scope, "", BOT_ACTOR, BOT_ACTOR)
        if reply.call is not None or reply.uncall:  # the next player, after a timeout
            await show_calls(self, self.manager, bot, reply)
        if reply.elsewhere:  # a timeout ended a round's last table: the standings
            await post_elsewhere(self, self.manager, bot, reply)
        if reply.tables:  # and the next round's tables
            await open_tables(self, self.manager, bot, reply)

    async def stop_gateway(self) -> None:
        """No new interactions: every shard's gateway connection is closed (REST still works,
        so the interactions in flight can be answered before `close`)."""
        for shard in self.shards.values():
            await shard.disconnect()

    async def _typed_options(self, interaction: discord.Interaction[Any]) -> bool:
        """Refuse a command whose options are not of their registered type, with one line."""
        data = interaction.data
        if interaction.type is not discord.InteractionType.application_command or not data:
            return True
        line = refusal(self.tree, dict(data), str(interaction.locale))
        if line is None:
            return True
        await interaction.response.send_message(split_text(line)[0], ephemeral=True)
        return False

    async def _on_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        log.error("slash command failed", exc_info=error)
        if interaction.response.is_done():
            return
        text = split_text(t(str(interaction.locale), "error.generic"))[0]
        await interaction.response.send_message(text, ephemeral=True)
