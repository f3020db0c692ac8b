"""`shutbox run`: start every configured platform; with none, the local playground."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any

from bot import event_loop
from bot.commands import CommandError, Subparsers
from bot.platforms import Platform, enabled_platforms, titles
from bot.settings import Settings, SettingsError, load_settings

log = logging.getLogger("shutbox")


def register(subparsers: Subparsers) -> None:
    """Add `run` to the command line."""
    parser = subparsers.add_parser("run", help="run the bot", description=__doc__)
    parser.add_argument(
        "--name", default=None, help="your name in the playground (default: your login name)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings()
    except SettingsError as error:
        raise CommandError(str(error)) from None
    platforms = enabled_platforms(settings)
    if not platforms:
        if not sys.stdin.isatty():
            # systemd, a container: a secret that did not arrive must not look like success
            raise CommandError(
                f"no platform is configured: set the {titles('or')} settings "
                "(see .env.example), or run it in a terminal for the playground"
            )
        from bot.commands.play import run_playground

        print(f"No {titles('or')} tokens are set: starting the local playground.")
        return run_playground(args.name)
    from bot.logs import setup_logging

    setup_logging(settings.core.log_level, settings.core.log_json)
    from bot.runtime import until_signalled

    core = settings.core
    serving = serve(settings, platforms)
    event_loop.run(until_signalled(serving, core.drain_seconds, core.grace_seconds))
    return 0


async def serve(settings: Settings, platforms: dict[str, Platform[Any]]) -> None:
    """Every configured platform on one runtime (one Redis connection, one manager); the health
    endpoint reports each of them."""
    from bot.commands.discord import PLATFORM as DISCORD
    from bot.commands.discord import over_http
    from bot.commands.slack import PLATFORM as SLACK
    from bot.commands.slack import socket_mode
    from bot.listeners import serving_listeners
    from bot.runtime import open_runtime

    # Slack over HTTP: its server is the public listener
    slack_http = SLACK in platforms and not socket_mode(settings)
    async with (
        open_runtime(settings.redis.url, settings.core.data_dir, core=settings.core) as runtime,
        serving_listeners(
            settings, runtime, list(platforms), public=not slack_http,
            posted=DISCORD in platforms and over_http(settings),
        ),  # fmt: skip
    ):
        await asyncio.gather(*(each.serve(settings, runtime) for each in platforms.values()))
