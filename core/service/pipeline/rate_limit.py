"""Rate limits per member: a middleware on `handle` (core/service/pipeline/bus.py) that
refuses a member going faster than the server allows, with one private line and nothing changed.

Counted in Redis (`AdminPort.hit`: a counter per member, bucket and window in the server's hash
slot), so every bot process shares one count. Every command a member sends counts against
`commands`; opening a game (`start`, `solo`, a rematch) also against `games`. The deadline
sweep's timeouts are never limited.

A click's count rides in its own commit script when it commits (`take_pending_hit` in
core/service/model/rate_limits.py, read by the store): the same counter, counted in the same
step, one round trip fewer per click.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.service.api.commands import Click, Command, Solo, Start, Timeout
from core.service.model.context import Context
from core.service.model.ports import AdminPort
from core.service.model.rate_limits import Limit, PendingHit, TooFast, pending
from core.service.model.views import Reply
from core.service.pipeline.bus import Next


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
        with pending(PendingHit(ctx.scope, ctx.user, self.commands)) as hit:
            try:
                reply = await call_next(ctx, command)
            except Exception:
                await self._count_untaken(ctx, hit)
                raise
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
    if not isinstance(command, Click) or command.pressed is None:
        return False
    return command.pressed.verb == "rematch"
