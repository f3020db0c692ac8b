"""The `shutbox` subcommands, one module each.

A command module exposes `register(subparsers) -> None`, which adds its parser and sets `func`
(`parsed namespace -> exit code`) as a default; `bot.cli.COMMANDS` lists the modules by name.
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


class CommandError(Exception):
    """A problem to report as one line on stderr, ending the command with `exit_code`."""

    def __init__(self, message: str, exit_code: int = USAGE_ERROR) -> None:
        super().__init__(message)
        self.exit_code = exit_code
