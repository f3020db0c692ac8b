"""`shutbox run`: start every configured platform; with none, the local playground."""

from __future__ import annotations

import argparse
import asyncio
import logging

from bot.commands import CommandError, Subparsers
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
    if not (settings.discord_enabled or settings.slack_enabled):
        from bot.commands.play import run_playground

        print("No Discord or Slack tokens are set: starting the local playground.")
        return run_playground(args.name)
    from bot.logs import setup_logging

    setup_logging(settings.core.log_level, settings.core.log_json)
    from bot.runtime import until_signalled

    asyncio.run(until_signalled(serve(settings)))
    return 0


async def serve(settings: Settings) -> None:
    """Every configured platform on one runtime (one Redis connection, one manager)."""
    from bot.runtime import open_runtime, serving_health

    platforms = [name for name, on in (("discord", settings.discord_enabled),
                                       ("slack", settings.slack_enabled)) if on]  # fmt: skip
    async with (
        open_runtime(settings.redis.url, settings.core.data_dir) as runtime,
        serving_health(settings, runtime, platforms),
    ):
        services = []
        if settings.discord_enabled:
            from bot.commands.discord import serve_discord

            services.append(serve_discord(settings, runtime))
        if settings.slack_enabled:
            from bot.commands.slack import serve_slack

            services.append(serve_slack(settings, runtime))
        await asyncio.gather(*services)
