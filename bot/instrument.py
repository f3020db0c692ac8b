"""Watch every command the GameManager handles: its name, outcome, time and request id.

`core/` must not know about metrics or logs, so `Instrument` is a middleware the composition
root gives the manager (core/service/pipeline/bus.py): it times each command on its way to
the handler, sweep timeouts included, and hands one `ActionRecord` per command to each observer.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.game.errors import ShutboxError
from core.service.api.commands import Click, Command
from core.service.model.buttons import VERBS
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.unreadable import Unreadable
from core.service.model.views import Reply
from core.service.pipeline.bus import Next, command_name
from core.service.pipeline.commit_loop import Busy
from core.store.redis_store import StoreUnavailable

FAULTS = (StoreUnavailable, Busy, Unreadable)  # errors that are ours, not the user's
log = logging.getLogger("shutbox")


class Outcome(StrEnum):
    OK = "ok"
    DUPLICATE = "duplicate"  # a repeated delivery, answered with its first result
    REFUSED = "refused"  # the rules said no: not your turn, an outdated button, too few chips
    ERROR = "error"  # Redis unreachable, a game too busy to update, or a bug


@dataclass(frozen=True, slots=True)
class ActionRecord:
    action: str  # the command (`start`, `join`) or the button (`click.roll`), or `timeout`
    outcome: Outcome
    seconds: float
    scope: Scope
    channel: str
    user: str
    request_id: str | None
    error: str = ""  # the error's catalog key, or the exception's class name


Observer = Callable[[ActionRecord], None]


def button_action(button: str) -> str:
    """`click.<verb>` for a button id, with a fixed set of names (they become metric labels)."""
    parts = button.split(":")
    verb = parts[1] if len(parts) > 1 and parts[1] in VERBS else "invalid"
    return f"click.{verb}"


def action_name(command: Command) -> str:
    """`click.<verb>` for a button, else the command's own name (`start`, `add_bot`, `timeout`)."""
    return button_action(command.button) if isinstance(command, Click) else command_name(command)


@dataclass(frozen=True, slots=True)
class Instrument:
    """The middleware: one `ActionRecord` per handled command for each of `observers`."""

    observers: Sequence[Observer]

    async def __call__(self, ctx: Context, command: Command, call_next: Next) -> Reply:
        started = time.perf_counter()
        try:
            reply = await call_next(ctx, command)
        except ShutboxError as refused:
            judged = Outcome.ERROR if isinstance(refused, FAULTS) else Outcome.REFUSED
            self._emit(_record(command, ctx, started, judged, refused.key))
            raise
        except Exception as bug:
            self._emit(_record(command, ctx, started, Outcome.ERROR, type(bug).__name__))
            raise
        judged = Outcome.DUPLICATE if reply.replayed else Outcome.OK
        self._emit(_record(command, ctx, started, judged))
        return reply

    def _emit(self, record: ActionRecord) -> None:
        for observer in self.observers:
            try:
                observer(record)
            except Exception:  # a broken metric must never break a game
                log.exception("action observer %r failed", observer)


def _record(
    command: Command, ctx: Context, started: float, outcome: Outcome, error: str = ""
) -> ActionRecord:
    return ActionRecord(
        action=action_name(command), outcome=outcome, seconds=time.perf_counter() - started,
        scope=ctx.scope, channel=ctx.channel, user=ctx.user, request_id=ctx.request_id,
        error=error,
    )  # fmt: skip
