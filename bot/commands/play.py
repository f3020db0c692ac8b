"""`shutbox play`: the local playground in this terminal (hot-seat players and bots)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.commands import Subparsers
from bot.settings import load_settings


def register(subparsers: Subparsers) -> None:
    """Add `play` to the command line."""
    parser = subparsers.add_parser("play", help="play in this terminal", description=__doc__)
    parser.add_argument(
        "--name", default=None, help="your name at the table (default: your login name)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return run_playground(args.name)


def run_playground(name: str) -> int:
    """The playground until `quit`, end of input or Ctrl-C, which only says goodbye.

    asyncio.run has cancelled the session by the time it raises KeyboardInterrupt, and the
    session's clean-up (the embedded Redis saves and stops) has run.
    """
    try:
        asyncio.run(play(name))
    except KeyboardInterrupt:
        print("\nBye!", flush=True)
    return 0


async def play(name: str | None) -> None:
    from bot.playground import log_to_file, open_playground

    settings = load_settings()
    with log_to_file(settings.core.data_dir, settings.core.log_level, settings.core.log_json):
        async with open_playground(settings.redis.url, settings.core.data_dir, name) as playground:
            await playground.run(sys.stdin, sys.stdout)
