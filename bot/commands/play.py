"""`shutbox play`: the local playground in this terminal (hot-seat players and bots)."""

from __future__ import annotations

import argparse
import asyncio
import signal
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

    A Ctrl-C before `play` takes it over ends `asyncio.run` with KeyboardInterrupt, once the
    session's clean-up (the embedded Redis saves and stops) has run.
    """
    try:
        interrupted = asyncio.run(play(name))
    except KeyboardInterrupt:
        interrupted = True
    if interrupted:
        print("\nBye!", flush=True)
    return 0


async def play(name: str | None) -> bool:
    """The session; True when Ctrl-C ended it.

    Ctrl-C cancels the session and sets `interrupted`: on Python 3.11 a cancel that lands in
    redis-py's `wait_for` (a command being sent) can be lost, and the event still ends the
    loop, at its prompt at the latest.
    """
    from bot.playground import log_to_file, open_playground

    loop, session = asyncio.get_running_loop(), asyncio.current_task()
    interrupted = asyncio.Event()

    def interrupt() -> None:
        if session is not None and not interrupted.is_set():
            interrupted.set()
            session.cancel()

    loop.add_signal_handler(signal.SIGINT, interrupt)
    try:
        settings = load_settings()
        with log_to_file(settings.core.data_dir, settings.core.log_level, settings.core.log_json):
            redis_url, data_dir = settings.redis.url, settings.core.data_dir
            async with open_playground(redis_url, data_dir, name) as playground:
                await playground.run(sys.stdin, sys.stdout, interrupted)
    except asyncio.CancelledError:
        if not interrupted.is_set():
            raise
    finally:
        loop.remove_signal_handler(signal.SIGINT)
    return interrupted.is_set()
