"""The path of a command through the manager: middleware around the handler table.

A middleware (bolt-python's pattern) is `async (ctx, command, next) -> Reply`: it may look at
the command, call `next` (the rest of the chain, ending at the command's handler), and see the
reply or the `ShutboxError` that comes back. Cross-cutting work (timing, metrics, logs) is one
middleware given to the manager, not a subclass that restates every command.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence

from core.service.api.commands import Command
from core.service.model.context import Context
from core.service.model.views import Reply

Next = Callable[[Context, Command], Awaitable[Reply]]
Middleware = Callable[[Context, Command, Next], Awaitable[Reply]]

_WORD_START = re.compile(r"(?<!^)(?=[A-Z])")


def chain(middleware: Sequence[Middleware], last: Next) -> Next:
    """`last` wrapped by each middleware; the first one given runs outermost."""
    for outer in reversed(middleware):
        last = _wrapped(outer, last)
    return last


def _wrapped(outer: Middleware, inner: Next) -> Next:
    async def run(ctx: Context, command: Command) -> Reply:
        return await outer(ctx, command, inner)

    return run


def command_name(command: Command | type[Command]) -> str:
    """The command's name for logs and metrics: its class in snake case (`AddBot` -> `add_bot`)."""
    kind = command if isinstance(command, type) else type(command)
    return _WORD_START.sub("_", kind.__name__).lower()
