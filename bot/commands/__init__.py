"""The `shutbox` subcommands, one module each.

A command module exposes `register(subparsers) -> None`, which adds its parser and sets `func`
(`parsed namespace -> exit code`) as a default; `bot.cli.COMMANDS` lists the modules by name.
A platform's module (bot/platforms.py lists them) returns its parser from `register` instead,
and its `run(args, settings)` gets the settings the CLI read for it.
Keep module-level imports light (every command is registered on each start): import platform
libraries inside `func`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeAlias

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
Handler: TypeAlias = Callable[[argparse.Namespace], int]

USAGE_ERROR = 2  # the exit code argparse uses for bad command lines
# How --server is written, for every operator tool's help and its error line.
SERVER_FORM = "platform:id (e.g. discord:123; the local playground is local:playground)"


class CommandError(Exception):
    """A problem to report as one line on stderr, ending the command with `exit_code`."""

    def __init__(self, message: str, exit_code: int = USAGE_ERROR) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high` (argparse then exits 2 with one
    line naming the option), so `--port 99999` never reaches a socket."""

    def parse(text: str) -> int:
        from core.game.numbers import is_integer

        if not is_integer(text) or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}")
        return int(text)

    parse.__name__ = f"number from {low} to {high}"
    return parse
