"""`shutbox slack`: run the Slack app, over HTTP (`--port`) or Socket Mode (`SLACK_APP_TOKEN`).

One workspace: SLACK_BOT_TOKEN + SLACK_SIGNING_SECRET. Many: SLACK_CLIENT_ID +
SLACK_CLIENT_SECRET + SLACK_SIGNING_SECRET, installed at /slack/install. SLACK_API_URL points
the Web API client elsewhere (a proxy, a test double).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from pydantic import SecretStr, field_validator
from pydantic_settings import BaseSettings

from bot import event_loop
from bot.commands import CommandError, Subparsers, bounded_int
from bot.sections import Port, Seconds, Settings, section_config, web_url

if TYPE_CHECKING:
    from adapters.slack.app import SlackBot, SlackConfig
    from bot.runtime import Runtime

PLATFORM = "slack"
# auth.test errors that mean the token itself is wrong: trying again cannot help
REJECTED = ("invalid_auth", "not_authed", "account_inactive", "token_revoked",
            "token_expired", "not_allowed_token_type")  # fmt: skip
AUTH_PAUSE, AUTH_PAUSE_MAX = 1.0, 30.0  # seconds between auth.test attempts, growing

log = logging.getLogger("shutbox.slack")


class SlackSettings(BaseSettings):
    model_config = section_config("SLACK_")

    bot_token: SecretStr | None = None
    signing_secret: SecretStr | None = None
    app_token: SecretStr | None = None  # xapp-...: Socket Mode instead of HTTP
    client_id: str | None = None  # with the secret below: many workspaces via OAuth install
    client_secret: SecretStr | None = None
    redirect_uri: str | None = None  # when the app lists several OAuth redirect URLs
    api_url: str = "https://slack.com/api/"
    port: Port | None = None  # the older name of SHUTBOX_PUBLIC_PORT, for Slack over HTTP
    # How often a serving process asks Slack whether it answers (/readyz and the
    # shutbox_platform_connected gauge follow the answer).
    check_seconds: Seconds = 15.0

    @field_validator("api_url", "redirect_uri")
    @classmethod
    def _web(cls, value: str | None) -> str | None:
        return web_url(value, "https", "http")


def enabled(slack: SlackSettings) -> bool:
    """A bot token and signing secret (one workspace), or an OAuth client (many) turn Slack on."""
    single = slack.bot_token is not None and slack.signing_secret is not None
    return single or (slack.client_id is not None and slack.client_secret is not None)


def register(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Add `slack` to the command line (the CLI reads the settings and calls `run`)."""
    parser = subparsers.add_parser(
        "slack", help="run the Slack app (HTTP or Socket Mode)", description=__doc__
    )
    parser.add_argument(
        "--port", type=bounded_int(0, 65535),
        help="the public listener's port (default: SHUTBOX_PUBLIC_PORT, else 3000)",
    )  # fmt: skip
    parser.add_argument(
        "--host", help="the public listener's address (default: SHUTBOX_PUBLIC_HOST, else all)"
    )
    parser.add_argument(
        "--http", action="store_true", help="serve HTTP even when SLACK_APP_TOKEN is set"
    )
    return parser


def run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.logs import setup_logging

    slack = settings.section(SlackSettings)
    slack_config(slack, socket_mode=socket_mode(settings, args.http))  # fail early
    setup_logging(settings.core.log_level, settings.core.log_json)
    from bot.runtime import until_signalled

    core = settings.core
    service = _serve_alone(settings, args.host, args.port, args.http)
    event_loop.run(until_signalled(service, core.drain_seconds, core.grace_seconds))
    return 0


def socket_mode(settings: Settings, force_http: bool = False) -> bool:
    return settings.section(SlackSettings).app_token is not None and not force_http


def slack_config(slack: SlackSettings, *, socket_mode: bool) -> SlackConfig:
    """The adapter's settings; says which variable is missing when Slack cannot work."""
    from adapters.slack.app import SlackConfig

    secret = slack.signing_secret.get_secret_value() if slack.signing_secret else None
    if secret is None and not socket_mode:
        raise CommandError("set SLACK_SIGNING_SECRET (Basic Information > App Credentials)")
    oauth = slack.client_id is not None and slack.client_secret is not None
    if slack.bot_token is None and not oauth:
        raise CommandError("set SLACK_BOT_TOKEN, or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET")
    return SlackConfig(
        signing_secret=secret or "",
        bot_token=slack.bot_token.get_secret_value() if slack.bot_token else None,
        client_id=slack.client_id,
        client_secret=slack.client_secret.get_secret_value() if slack.client_secret else None,
        api_url=slack.api_url,
        redirect_uri=slack.redirect_uri,
    )


async def serve_slack(
    settings: Settings,
    runtime: Runtime,
    host: str | None = None,
    port: int | None = None,
    force_http: bool = False,
) -> None:
    """The Slack app on an open runtime, with its deadline sweep, until cancelled."""
    from adapters.slack.app import build_app
    from adapters.slack.membership import WorkspaceMembership
    from adapters.slack.reach import SlackReach
    from bot.runtime import sweeping

    sockets, slack = socket_mode(settings, force_http), settings.section(SlackSettings)
    from bot.pictures import picture_links

    config = replace(slack_config(slack, socket_mode=sockets), pictures=picture_links(settings))
    report = runtime.telemetry.delivery_failed(PLATFORM)
    if config.pictures is not None and (not sockets or settings.core.public_port):
        runtime.manager.pictures.add(PLATFORM)  # served by this process's public listener
    bot = build_app(runtime.manager, config, runtime.redis, report=report,
                    inflight=runtime.inflight)  # fmt: skip
    runtime.manager.membership = WorkspaceMembership(bot.client_for)
    every = settings.core.sweep_seconds
    listening = 0 if sockets else _public_port(settings, port)
    host = host or settings.core.public_host
    platforms = runtime.telemetry.platforms
    on_ack = runtime.telemetry.observe_slack_ack
    if not await _token_accepted(bot, runtime):
        return  # the shutdown came while Slack could not be reached
    async with bot.connections(), sweeping(runtime.manager, PLATFORM, bot.on_timeout, every):
        async with _connected(bot, settings, sockets, host, listening, on_ack, runtime):
            platforms.connected(PLATFORM)
            reach = SlackReach(bot.app.client, config.bot_token is not None,
                               lambda up: platforms.report(PLATFORM, up), slack.check_seconds)
            try:
                await reach.run(runtime.until_stopping)  # Slack lost later: not ready
            finally:
                platforms.disconnected(PLATFORM)
        log.info("Slack listener closed")
        await runtime.finish_inflight()  # before the sweep and the runtime close


def _public_port(settings: Settings, port: int | None) -> int:
    """--port, else SLACK_PORT (its older name), else SHUTBOX_PUBLIC_PORT; over HTTP Slack needs
    the public listener, so 0 there is a start-up error."""
    chosen = next(p for p in (port, settings.section(SlackSettings).port,
                              settings.core.public_port) if p is not None)  # fmt: skip
    if not chosen:
        raise CommandError("Slack over HTTP needs the public listener: set SHUTBOX_PUBLIC_PORT "
                           "(0 turns it off), or use Socket Mode (SLACK_APP_TOKEN)")  # fmt: skip
    return chosen


async def _token_accepted(bot: SlackBot, runtime: Runtime) -> bool:
    """Ask Slack whether the bot token works (auth.test) before serving anything; readiness
    stays 503 meanwhile. A rejected token ends the process (exit 2); a Slack that cannot be
    reached is asked again with a growing pause. False if the process is told to stop first."""
    import aiohttp
    from slack_sdk.errors import SlackApiError

    from adapters.slack.calls import reason_of

    if bot.config.bot_token is None:
        return True  # OAuth installs: each workspace's token is checked when it is used
    pause = AUTH_PAUSE
    while True:
        try:
            answer = await bot.app.client.auth_test()
        except SlackApiError as error:
            reason = reason_of(error)
            if reason in REJECTED:
                raise CommandError(f"Slack refused SLACK_BOT_TOKEN ({reason}): copy the Bot "
                                   "User OAuth Token again") from None  # fmt: skip
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            reason = reason_of(error)
        else:
            log.info("Slack accepted the bot token (team %s)", answer.get("team_id"))
            return True
        log.warning("Slack can't be reached (%s); trying again in %g s", reason, pause)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(runtime.until_stopping(), pause)
            return False
        pause = min(pause * 2, AUTH_PAUSE_MAX)


@contextlib.asynccontextmanager
async def _connected(
    bot: SlackBot,
    settings: Settings,
    sockets: bool,
    host: str,
    port: int,
    on_ack: Callable[[float], None],
    runtime: Runtime,
) -> AsyncIterator[None]:
    """Socket Mode when there is an app token (and no --http), else HTTP on `host:port`: then
    this is the public listener, with the pictures and pages on it (bot/listeners.py)."""
    from adapters.slack.server import EVENTS_PATH, serving_http, serving_socket_mode
    from bot.listeners import public_side

    app_token = settings.section(SlackSettings).app_token
    if sockets and app_token is not None:
        async with serving_socket_mode(bot, app_token.get_secret_value()):
            log.info("Slack app connected in Socket Mode")
            yield
        return
    public = public_side(settings, runtime)
    async with serving_http(bot, host, port, on_ack, public) as bound:
        log.info("Slack app and public listener on http://%s:%d%s (and /board/, /s/)",
                 host, bound, EVENTS_PATH)  # fmt: skip
        yield


async def _serve_alone(
    settings: Settings, host: str | None, port: int | None, force_http: bool
) -> None:
    """`serve_slack` on its own runtime (and listeners: Slack's server is the public one over
    HTTP)."""
    from bot.listeners import serving_listeners
    from bot.runtime import open_runtime

    public = socket_mode(settings, force_http)
    async with (
        open_runtime(settings.redis.url, settings.core.data_dir, core=settings.core) as runtime,
        serving_listeners(settings, runtime, [PLATFORM], public=public),
    ):
        await serve_slack(settings, runtime, host, port, force_http)
