"""`shutbox discord`: run the Discord bot; `shutbox discord invite-url`: the link that adds it.

DISCORD_TOKEN is the bot's token. DISCORD_API_BASE and DISCORD_GATEWAY_URL point discord.py
elsewhere (a proxy, a test double); DISCORD_DEV_GUILD registers the commands in one guild only.
`--shard-count 4 --shard-ids 0,1` runs shards 0 and 1 of 4 in this process; the process that
runs shard 0 registers the slash commands.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import logging
import re
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings

from bot import event_loop
from bot.commands import CommandError, Subparsers, bounded_int
from bot.commands.discord_http import check_http, serve_interactions
from bot.sections import Settings, section_config, web_url
from core.game.numbers import is_digits

if TYPE_CHECKING:
    from adapters.discord import ClientOptions, ShutboxClient
    from bot.runtime import Runtime

log = logging.getLogger("shutbox.discord")
PLATFORM = "discord"
ACTIONS = ("run", "invite-url")
LOGIN_FAILED = 2  # a rejected token is a setting to fix: one line and exit 2
UNREACHABLE = 1  # only with a finite number of login attempts


class DiscordSettings(BaseSettings):
    model_config = section_config("DISCORD_")

    token: SecretStr | None = None
    client_id: str | None = None  # the application id, for the invite URL
    api_base: str = "https://discord.com/api/v10"
    gateway_url: str = "wss://gateway.discord.gg/"
    dev_guild: Annotated[int, Field(gt=0)] | None = None  # sync commands to this guild only
    shard_count: Annotated[int, Field(ge=1)] | None = None
    shard_ids: str | None = None  # e.g. "0,1": the shards this process runs
    # http: interactions are POSTed to /discord/interactions (bot/commands/discord_http.py)
    mode: Literal["gateway", "http"] = "gateway"
    public_key: str | None = Field(default=None, validate_default=True)  # checks the POSTs

    @field_validator("public_key")
    @classmethod
    def _public_key(cls, value: str | None, info: ValidationInfo) -> str | None:
        from adapters.discord.http.signature import BadPublicKey, verify_key

        if value is None:
            if info.data.get("mode") == "http" and info.data.get("token") is not None:
                raise ValueError("needed when DISCORD_MODE=http (Developer Portal > General "
                                 "Information > Public Key)")  # fmt: skip
            return None
        try:
            verify_key(value)
        except BadPublicKey as error:
            raise ValueError(f"the application's Public Key {error}") from None
        return value.strip()

    @field_validator("client_id")
    @classmethod
    def _snowflake(cls, value: str | None) -> str | None:
        if value is not None and not (value.isascii() and value.isdigit()):
            raise ValueError("must be the application id, a number (General Information)")
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shard_list(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[0-9]{1,6}(,[0-9]{1,6})*", value):
            raise ValueError(f"shard ids are numbers separated by commas, not {value!r}")
        return value

    @field_validator("api_base")
    @classmethod
    def _api(cls, value: str) -> str | None:
        return web_url(value, "https", "http")

    @field_validator("gateway_url")
    @classmethod
    def _gateway(cls, value: str) -> str | None:
        return web_url(value, "wss", "ws")


def over_http(settings: Settings) -> bool:
    """Whether Discord posts its interactions to this bot (`DISCORD_MODE=http`)."""
    return settings.section(DiscordSettings).mode == "http"


def enabled(discord_settings: DiscordSettings) -> bool:
    """A bot token turns Discord on (for `shutbox run`)."""
    return discord_settings.token is not None


def register(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Add `discord` to the command line (the CLI reads the settings and calls `run`)."""
    parser = subparsers.add_parser(
        "discord", help="run the Discord bot, or print its invite link", description=__doc__
    )
    parser.add_argument(
        "action", nargs="?", choices=ACTIONS, default="run",
        help="run the bot (default), or print the link that adds it to a server",
    )  # fmt: skip
    parser.add_argument(
        "--shard-count", type=bounded_int(1, 100_000),
        help="total shards (default: DISCORD_SHARD_COUNT, else Discord's recommendation)",
    )  # fmt: skip
    parser.add_argument(
        "--shard-ids", help="the shards this process runs, e.g. 0,1 (default: DISCORD_SHARD_IDS)"
    )
    parser.add_argument(
        "--client-id", help="invite-url: the application id (default: DISCORD_CLIENT_ID)"
    )
    return parser


def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.logs import setup_logging

    discord_settings = settings.section(DiscordSettings)
    if args.action == "invite-url":
        print(invite(discord_settings, args.client_id))
        return 0
    options = client_options(discord_settings, args.shard_count, args.shard_ids)
    bot_token(discord_settings)  # fail before starting Redis
    if discord_settings.mode == "http":
        check_http(settings)
    setup_logging(settings.core.log_level, settings.core.log_json)
    import discord

    from adapters.discord import DiscordUnreachable
    from bot.runtime import until_signalled

    try:
        core = settings.core
        service = _serve_alone(settings, options)
        event_loop.run(until_signalled(service, core.drain_seconds, core.grace_seconds))
    except discord.LoginFailure as error:
        raise CommandError(f"Discord refused DISCORD_TOKEN: {error}", LOGIN_FAILED) from None
    except DiscordUnreachable as error:
        raise CommandError(str(error), UNREACHABLE) from None
    return 0


def invite(discord_settings: DiscordSettings, client_id: str | None) -> str:
    """The OAuth2 link with the bot's scopes and permissions."""
    from adapters.discord.invite import invite_url

    application = client_id or discord_settings.client_id
    if not application or not is_digits(application):
        raise CommandError("give the application id: --client-id 123... or DISCORD_CLIENT_ID "
                           "(Developer Portal > General Information > Application ID)")  # fmt: skip
    return invite_url(application)


def bot_token(discord_settings: DiscordSettings) -> str:
    if discord_settings.token is None:
        raise CommandError("set DISCORD_TOKEN (Developer Portal > Bot > Reset Token)")
    return discord_settings.token.get_secret_value()


def parse_shard_ids(text: str | None) -> tuple[int, ...] | None:
    """`0,1` as (0, 1); None when not given."""
    if not text:
        return None
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise CommandError(f"shard ids are numbers separated by commas, not {text!r}") from None


def client_options(
    discord_settings: DiscordSettings, shard_count: int | None = None, shard_ids: str | None = None
) -> ClientOptions:
    """Shards and command registration, from the command line or else the settings."""
    from adapters.discord import ClientOptions

    count = shard_count if shard_count is not None else discord_settings.shard_count
    ids = parse_shard_ids(shard_ids or discord_settings.shard_ids)
    if count is not None and count < 1:
        raise CommandError(f"the shard count must be at least 1, not {count}")
    if ids is not None and (count is None or not all(0 <= i < count for i in ids)):
        raise CommandError("shard ids need a shard count, and each must be below it")
    return ClientOptions(
        shard_count=count, shard_ids=ids, dev_guild=discord_settings.dev_guild,
        sync_commands=ids is None or 0 in ids,
    )  # fmt: skip


async def serve_discord(
    settings: Settings, runtime: Runtime, options: ClientOptions | None = None
) -> None:
    """The Discord bot on an open runtime, with its deadline sweep, until cancelled."""
    from adapters.discord import ShutboxClient, point_at
    from adapters.discord.membership import GuildMembership
    from bot.pictures import picture_links
    from bot.runtime import sweeping

    discord_settings = settings.section(DiscordSettings)
    http_mode = over_http(settings)
    if http_mode:
        check_http(settings)
    point_at(discord_settings.api_base, discord_settings.gateway_url)
    report = functools.partial(runtime.telemetry.platforms.report, PLATFORM)
    options = dataclasses.replace(
        options or client_options(discord_settings), gateway=not http_mode,
        pictures=picture_links(settings),  # by link with a public address, else uploaded
    )  # fmt: skip
    runtime.manager.pictures.add(PLATFORM)  # a picture is linked or travels with the message
    client = ShutboxClient(
        runtime.manager, options, on_connection=report, inflight=runtime.inflight,
        report=runtime.telemetry.delivery_failed(PLATFORM),
    )  # fmt: skip
    runtime.telemetry.gateway_latencies = lambda: client.latencies
    runtime.manager.membership = GuildMembership(client)  # who has left a guild
    every = settings.core.sweep_seconds
    async with client, sweeping(runtime.manager, PLATFORM, client.show_timeout, every, client.owns):
        try:
            if not await _logged_in_before_stopping(client, runtime, bot_token(discord_settings)):
                return
            if http_mode:
                gateway = (discord_settings.gateway_url, bot_token(discord_settings))
                key = discord_settings.public_key or ""  # required in this mode (the settings)
                await serve_interactions(runtime, client, key, gateway, report)
            else:
                await _connected_until_stopping(client, runtime)
        finally:
            report(False)


async def _logged_in_before_stopping(client: ShutboxClient, runtime: Runtime, token: str) -> bool:
    """Log in, unless the shutdown's drain ends first: a retry loop still waiting for Discord
    is given up then, so a stop signal is not held up by its pause."""
    login = asyncio.create_task(client.log_in(token))
    stopping = asyncio.create_task(runtime.until_stopping())
    await asyncio.wait({login, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if login.done():
        login.result()  # a rejected token or a given-up login: its error
        return True
    login.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await login
    log.info("Discord login given up: the process is stopping")
    return False


async def _connected_until_stopping(client: ShutboxClient, runtime: Runtime) -> None:
    """The gateway connection, until the shutdown's drain is over: then no new interactions
    come in, and the ones being answered get the grace period before the client closes."""
    connection = asyncio.create_task(client.connect())
    stopping = asyncio.create_task(runtime.until_stopping())
    await asyncio.wait({connection, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if connection.done():
        connection.result()  # the connection ended by itself: its error, if any
        return
    await client.stop_gateway()
    log.info("Discord gateway closed")
    await runtime.finish_inflight()
    connection.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await connection


async def _serve_alone(settings: Settings, options: ClientOptions) -> None:
    """`serve_discord` on its own runtime, with its listeners (the public one over HTTP)."""
    from bot.listeners import serving_listeners
    from bot.runtime import open_runtime

    async with (
        open_runtime(settings.redis.url, settings.core.data_dir, core=settings.core) as runtime,
        serving_listeners(settings, runtime, [PLATFORM], posted=over_http(settings)),
    ):
        await serve_discord(settings, runtime, options)
