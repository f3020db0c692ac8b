"""Rate limits per member: a middleware on `handle` (core/service/bus.py) that refuses a member
going faster than the server allows, with one private line and nothing changed.

Counted in Redis (`AdminPort.hit`: a counter per member, bucket and window in the server's hash
slot), so every bot process shares one count. Every command a member sends counts against
`commands`; opening a game (`start`, `solo`, a rematch) also against `games`. The deadline
sweep's timeouts are never limited.

A click's count rides in its own commit script when it commits (`take_pending_hit`, read by
the store): the same counter, counted in the same step, one round trip fewer per click.
"""

from __future__ import annotations

import math
import re
from contextvars import ContextVar
from dataclasses import dataclass

from core.game.errors import ShutboxError, StaleAction
from core.service.bus import Next
from core.service.buttons import parse_button
from core.service.commands import Click, Command, Solo, Start, Timeout
from core.service.commit import Scope
from core.service.context import Context
from core.service.ports import AdminPort
from core.service.views import Reply

_FORM = re.compile(r"\s*(\d+)\s*/\s*(\d+(?:\.\d+)?)\s*s?\s*")
OFF = ("0", "off", "none")


class TooFast(ShutboxError):
    """The member went past a rate limit; `seconds` until they may go on."""

    key = "error.rate_limit"

    def __init__(self, key: str, seconds: int) -> None:
        super().__init__(key, seconds=seconds)


@dataclass(frozen=True, slots=True)
class Limit:
    """At most `count` in any `seconds`-long window that starts with a member's first hit."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Limit | None:
        """`40/10` (40 per 10 seconds; `40/10s` too); `0` or `off`: no limit. ValueError else."""
        if text.strip().lower() in OFF:
            return None
        found = _FORM.fullmatch(text)
        if found is None:
            raise ValueError(f"must be COUNT/SECONDS, e.g. 40/10 (or off), not {text!r}")
        count, seconds = int(found[1]), float(found[2])
        if count < 1 or not 0 < seconds <= 3600:
            raise ValueError("needs a count of at least 1 and 0 to 3600 seconds")
        return cls(count, seconds)


@dataclass(slots=True)
class PendingHit:
    """A click's count against `commands`, not yet counted: the click's first commit takes it
    (the script counts it before any check, and refuses the commit past the limit)."""

    scope: Scope
    user: str
    limit: Limit
    closed: bool = False  # taken by a commit, or counted on its own after the handler


_PENDING: ContextVar[PendingHit | None] = ContextVar("shutbox_pending_hit", default=None)


def take_pending_hit(scope: Scope) -> PendingHit | None:
    """The running click's count, for the commit about to be sent in `scope` (once only)."""
    hit = _PENDING.get()
    if hit is None or hit.closed or hit.scope != scope:
        return None
    hit.closed = True
    return hit


@dataclass(frozen=True, slots=True)
class RateLimits:
    """The middleware: each member's commands, and the games they open, counted and capped."""

    store: AdminPort
    commands: Limit | None
    games: Limit | None

    async def __call__(self, ctx: Context, command: Command, call_next: Next) -> Reply:
        if self.commands is not None and isinstance(command, Click) and not opens_game(command):
            return await self._click(ctx, command, call_next)
        if not isinstance(command, Timeout):
            await self._check(ctx, "cmd", self.commands, "error.rate_limit")
            if opens_game(command):
                await self._check(ctx, "game", self.games, "error.rate_limit.games")
        return await call_next(ctx, command)

    async def _click(self, ctx: Context, command: Command, call_next: Next) -> Reply:
        """The click's count goes with its commit; a click that commits nothing (a hint, a
        stale button) changed nothing, so it is counted after its handler, and refused then."""
        assert self.commands is not None
        hit = PendingHit(ctx.scope, ctx.user, self.commands)
        token = _PENDING.set(hit)
        try:
            reply = await call_next(ctx, command)
        except Exception:
            await self._count_untaken(ctx, hit)
            raise
        finally:
            _PENDING.reset(token)
        await self._count_untaken(ctx, hit)
        return reply

    async def _count_untaken(self, ctx: Context, hit: PendingHit) -> None:
        if not hit.closed:
            hit.closed = True  # a task the handler left behind must not count it again
            await self._check(ctx, "cmd", hit.limit, "error.rate_limit")

    async def _check(self, ctx: Context, bucket: str, limit: Limit | None, key: str) -> None:
        if limit is None:
            return
        wait = await self.store.hit(ctx.scope, bucket, ctx.user, limit.count, limit.seconds)
        if wait > 0:
            raise TooFast(key, max(1, math.ceil(wait)))


def opens_game(command: Command) -> bool:
    if isinstance(command, Start | Solo):
        return True
    if not isinstance(command, Click):
        return False
    try:
        return parse_button(command.button).verb == "rematch"
    except StaleAction:
        return False
