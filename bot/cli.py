"""The `shutbox` command line: one argparse subcommand per module in `bot.commands`."""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType


def _leave(signum: int, frame: FrameType | None) -> None:
    # Nothing has started yet: nothing to clean up, nothing to say. Not an exception: raised
    # inside a compiled module's import (pydantic-core's), it ends in a panic and a traceback.
    os._exit(0)


# Ctrl-C while the modules below load (the longest part of starting) ends the process at once,
# exit 0 and no traceback, as it does once a command runs; Python's handler is back after them.
_BEFORE = signal.getsignal(signal.SIGINT)
if threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGINT, _leave)

import argparse  # noqa: E402
import importlib  # noqa: E402
from typing import Any  # noqa: E402

from bot.commands import CommandError, Subparsers  # noqa: E402
from bot.platforms import PLATFORMS, Platform, titles  # noqa: E402
from bot.settings import load_settings  # noqa: E402

if signal.getsignal(signal.SIGINT) is _leave:
    signal.signal(signal.SIGINT, _BEFORE if _BEFORE is not None else signal.default_int_handler)

# Each tool is a module in `bot.commands` exposing `register(subparsers)`; add a command here.
# Each platform (bot/platforms.py) adds its own, after the tools that play and compute.
COMMANDS: tuple[str, ...] = (
    "run",
    "play",
    "odds",
    "review",
    "simulate",
    "board",
    *PLATFORMS,
    "verify",
    "ledger",
    "backup",
    "audit",
    "user",
    "bench",
)


# The documentation page that explains each command (docs/, built into the site by mkdocs);
# its --help ends with it. A test holds that every command has one and every page exists.
PAGES: dict[str, str] = {
    "run": "docs/run/settings.md",
    "play": "docs/play/playground.md",
    "odds": "docs/operate/cli.md",
    "review": "docs/play/reviews.md",
    "simulate": "docs/operate/cli.md",
    "board": "docs/run/pictures.md",
    "discord": "docs/run/discord.md",
    "slack": "docs/run/slack.md",
    "verify": "docs/play/challenge.md",
    "ledger": "docs/operate/backup.md",
    "backup": "docs/operate/backup.md",
    "restore": "docs/operate/backup.md",
    "audit": "docs/operate/members.md",
    "user": "docs/operate/members.md",
    "bench": "docs/develop/benchmarks.md",
}
INDEX_PAGE = "docs/index.md"


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every command's subparser registered."""
    parser = argparse.ArgumentParser(
        prog="shutbox",
        description=f"Shut the Box for {titles('and')}: tools and servers.",
        epilog=f"Documentation: {INDEX_PAGE} (the site: mkdocs serve); each command's --help "
        "names the page that explains it.",
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in COMMANDS:
        if name in PLATFORMS:
            _register_platform(subparsers, PLATFORMS[name])
        else:
            importlib.import_module(f"bot.commands.{name}").register(subparsers)
    for name, command in subparsers.choices.items():
        page = PAGES.get(name)
        if page is not None:
            note = f"Explained in {page}."
            command.epilog = f"{command.epilog}\n\n{note}" if command.epilog else note
    return parser


def _register_platform(subparsers: Subparsers, platform: Platform[Any]) -> None:
    """The platform's subcommand, run with the settings read (a `SettingsError` is one line)."""
    parser = platform.command(subparsers)
    parser.set_defaults(func=lambda args: platform.run(args, load_settings()))


def main(argv: list[str] | None = None) -> int:
    """Run one command and return its exit code (2 for a bad command line). The playground and
    the servers take Ctrl-C over and end with 0; any other command it stops (a backup, a
    restore) says so and exits 130, as a shell expects, never 0 as if it had finished."""
    try:
        return _run(argv)
    except KeyboardInterrupt:
        print("shutbox: interrupted before it finished", file=sys.stderr)
        return INTERRUPTED


INTERRUPTED = 128 + signal.SIGINT  # the shells' exit code for a command ended by Ctrl-C


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed the usage or the help already
        return exit_.code if isinstance(exit_.code, int) else 2
    if not hasattr(args, "func"):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except CommandError as err:
        print(f"shutbox: {err}", file=sys.stderr)
        return err.exit_code


if __name__ == "__main__":
    sys.exit(main())
