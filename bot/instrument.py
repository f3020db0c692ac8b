"""Watch every command the GameManager handles: its name, outcome, time and request id.

`core/` must not know about metrics or logs, so `InstrumentedManager` wraps the manager's public
commands from the outside and hands one `ActionRecord` per command to each observer.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum

from core.game.errors import ShutboxError
from core.service.buttons import VERBS, ButtonId
from core.service.commit import Scope
from core.service.context import Context
from core.service.gifts import Recipient
from core.service.manager import SWEEP_CLOCK, Busy, GameManager
from core.service.settings import StartOptions
from core.service.views import Reply
from core.store.redis_store import StoreUnavailable

FAULTS = (StoreUnavailable, Busy)  # errors that are ours, not the user's
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


@dataclass(slots=True)
class _Watch:
    """What the command in flight has learnt about its own outcome so far."""

    outcome: Outcome = Outcome.OK
    error: str = ""


_watch: ContextVar[_Watch | None] = ContextVar("shutbox_watch", default=None)


def button_action(button: str) -> str:
    """`click.<verb>` for a button id, with a fixed set of names (they become metric labels)."""
    parts = button.split(":")
    verb = parts[1] if len(parts) > 1 and parts[1] in VERBS else "invalid"
    return f"click.{verb}"


@dataclass(slots=True)
class InstrumentedManager(GameManager):
    """A GameManager that reports each handled command to `observers`."""

    observers: list[Observer] = field(default_factory=list)

    async def _observed(
        self, action: str, ctx: Context, call: Callable[[], Awaitable[Reply]]
    ) -> Reply:
        watch = _Watch()
        token = _watch.set(watch)
        started = time.perf_counter()
        try:
            return await call()
        except Exception as error:
            watch.outcome, watch.error = Outcome.ERROR, type(error).__name__
            raise
        finally:
            _watch.reset(token)
            seconds = time.perf_counter() - started
            self._emit(_record(action, watch, seconds, ctx))

    def _emit(self, record: ActionRecord) -> None:
        for observer in self.observers:
            try:
                observer(record)
            except Exception:  # a broken metric must never break a game
                log.exception("action observer %r failed", observer)

    async def handle(
        self,
        ctx: Context,
        work: Callable[[], Awaitable[Reply]],
        *,
        clicked: ButtonId | None = None,
    ) -> Reply:
        watch = _watch.get()
        if watch is None:
            return await GameManager.handle(self, ctx, work, clicked=clicked)

        async def watched() -> Reply:
            try:
                return await work()
            except ShutboxError as error:
                watch.outcome = Outcome.ERROR if isinstance(error, FAULTS) else Outcome.REFUSED
                watch.error = error.key
                raise

        return await GameManager.handle(self, ctx, watched, clicked=clicked)

    async def _first_result(self, ctx: Context, error: ShutboxError) -> Reply | None:
        first = await GameManager._first_result(self, ctx, error)
        watch = _watch.get()
        if first is not None and watch is not None:
            watch.outcome, watch.error = Outcome.DUPLICATE, ""
        return first

    async def _expire(self, scope: Scope, channel: str, now: int) -> Reply | None:
        started = time.perf_counter()
        reply = await GameManager._expire(self, scope, channel, now)
        if reply is not None:
            ctx = Context(scope, channel, SWEEP_CLOCK, SWEEP_CLOCK)
            self._emit(_record("timeout", _Watch(), time.perf_counter() - started, ctx))
        return reply

    # -- the commands adapters call -------------------------------------------------------

    async def click(self, ctx: Context, button: str) -> Reply:
        call = GameManager.click
        return await self._observed(button_action(button), ctx, lambda: call(self, ctx, button))

    async def start(self, ctx: Context, options: StartOptions) -> Reply:
        return await self._observed("start", ctx, lambda: GameManager.start(self, ctx, options))

    async def solo(self, ctx: Context, options: StartOptions) -> Reply:
        return await self._observed("solo", ctx, lambda: GameManager.solo(self, ctx, options))

    async def join(self, ctx: Context) -> Reply:
        return await self._observed("join", ctx, lambda: GameManager.join(self, ctx))

    async def leave(self, ctx: Context) -> Reply:
        return await self._observed("leave", ctx, lambda: GameManager.leave(self, ctx))

    async def add_bot(self, ctx: Context) -> Reply:
        return await self._observed("add_bot", ctx, lambda: GameManager.add_bot(self, ctx))

    async def begin(self, ctx: Context) -> Reply:
        return await self._observed("begin", ctx, lambda: GameManager.begin(self, ctx))

    async def cancel(self, ctx: Context) -> Reply:
        return await self._observed("cancel", ctx, lambda: GameManager.cancel(self, ctx))

    async def stop(self, ctx: Context) -> Reply:
        return await self._observed("stop", ctx, lambda: GameManager.stop(self, ctx))

    async def balance(self, ctx: Context) -> Reply:
        return await self._observed("balance", ctx, lambda: GameManager.balance(self, ctx))

    async def daily(self, ctx: Context) -> Reply:
        return await self._observed("daily", ctx, lambda: GameManager.daily(self, ctx))

    async def grant(self, ctx: Context, target: str, name: str, amount: int) -> Reply:
        call = GameManager.grant
        return await self._observed("grant", ctx, lambda: call(self, ctx, target, name, amount))

    async def leaderboard(
        self, ctx: Context, board: str = "wins", preset: str | None = None,
        season: int | None = None, page: int = 0,
    ) -> Reply:  # fmt: skip
        call = GameManager.leaderboard
        return await self._observed(
            "leaderboard", ctx, lambda: call(self, ctx, board, preset, season, page)
        )

    async def season(self, ctx: Context, end: bool = False, reset_chips: bool = False) -> Reply:
        call = GameManager.season
        return await self._observed("season", ctx, lambda: call(self, ctx, end, reset_chips))

    async def stats(self, ctx: Context, user: str | None = None, name: str | None = None) -> Reply:
        call = GameManager.stats
        return await self._observed("stats", ctx, lambda: call(self, ctx, user, name))

    async def configure(self, ctx: Context, changes: dict[str, str]) -> Reply:
        call = GameManager.configure
        return await self._observed("configure", ctx, lambda: call(self, ctx, changes))

    async def rules(self, ctx: Context, preset: str | None = None) -> Reply:
        return await self._observed("rules", ctx, lambda: GameManager.rules(self, ctx, preset))

    async def odds(self, ctx: Context, preset: str | None = None) -> Reply:
        return await self._observed("odds", ctx, lambda: GameManager.odds(self, ctx, preset))

    async def give(self, ctx: Context, recipient: Recipient, amount: int) -> Reply:
        call = GameManager.give
        return await self._observed("give", ctx, lambda: call(self, ctx, recipient, amount))

    async def rank(self, ctx: Context, user: str | None = None, name: str | None = None) -> Reply:
        call = GameManager.rank
        return await self._observed("rank", ctx, lambda: call(self, ctx, user, name))

    async def review(self, ctx: Context) -> Reply:
        return await self._observed("review", ctx, lambda: GameManager.review(self, ctx))

    async def help(self, ctx: Context) -> Reply:
        return await self._observed("help", ctx, lambda: GameManager.help(self, ctx))


def _record(action: str, watch: _Watch, seconds: float, ctx: Context) -> ActionRecord:
    return ActionRecord(
        action=action, outcome=watch.outcome, seconds=seconds, scope=ctx.scope,
        channel=ctx.channel, user=ctx.user, request_id=ctx.request_id, error=watch.error,
    )  # fmt: skip
