"""The GameManager: the one API every surface calls, for every command and button (SPEC 3-6).

`handle(ctx, command)` is the one entry point: the command runs through the middleware the
manager was built with, then the handler `HANDLERS` names for its class. The manager is the
process's runtime (runtime.py: the store, the clock, the dice, the caches) with the entry points
a surface holds (api/service.py `Service`); everything it does is a function of that runtime in
the modules beside it: the commit loop, opening, game commands, clicks, the challenge, the sweep,
the projection. It turns every user error into a private, translated reply.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace

from core.game.errors import ShutboxError
from core.service.api.commands import Command
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.ports import OutcomeUnknown, StoreUnavailable
from core.service.model.record import GameRecord
from core.service.model.services import Runs
from core.service.model.unreadable import Unreadable, answer_key
from core.service.model.views import Reply
from core.service.pipeline import projection, sweep
from core.service.pipeline.bus import Next, chain
from core.service.pipeline.cached import note_message, record_of
from core.service.pipeline.challenge_commands import challenge_context
from core.service.pipeline.clicks import CLICK_ROUTES, clicked_button
from core.service.pipeline.commit_loop import Busy
from core.service.pipeline.game_commands import LOBBY_ROUTES
from core.service.pipeline.runtime import GameRuntime
from core.service.pipeline.subcommands import SUBCOMMANDS
from core.service.pipeline.sweep import SWEEP_CLOCK, SWEEP_ROUTES
from core.service.pipeline.tournament_tables import TABLE_ROUTES

__all__ = ["HANDLERS", "SWEEP_CLOCK", "Busy", "GameManager"]

# Each command class and the handler that answers it: every subcommand's from its entry in the
# subcommand table, then the buttons', the lobby's typed controls', the sweep's and a tournament
# table's. Each entry was type-checked against its command where it was made (`Route`,
# `Subcommand`).
HANDLERS: Mapping[type[Command], Runs[GameRuntime]] = {
    **{entry.command: entry for entry in SUBCOMMANDS},
    **{route.command: route
       for route in (*CLICK_ROUTES, *LOBBY_ROUTES, *SWEEP_ROUTES, *TABLE_ROUTES)},
}  # fmt: skip


@dataclass(slots=True)
class GameManager(GameRuntime):
    """Platform-neutral: adapters build a `Context` and a command, and render the `Reply`."""

    # The middleware wrapped around the handler table, built on the first command.
    _pipeline: Next | None = field(default=None, init=False, repr=False)

    async def handle(self, ctx: Context, command: Command) -> Reply:
        """Run one command; any user error becomes a private, translated reply.

        The reply's game view always shows the game as Redis holds it: a repeated delivery and
        a click refused on an outdated message both bring the game message up to date.
        """
        if ctx.request_id is None:  # every commit needs one to be found again after a lost reply
            ctx = replace(ctx, request_id=f"local:{secrets.token_hex(8)}")
        ctx = challenge_context(ctx, command)  # a challenge's buttons act on the presser's own
        try:
            reply = await self._through_middleware(ctx, command)
        except OutcomeUnknown as lost:
            reply = await projection.still_unknown(self, ctx, lost)
        except ShutboxError as error:
            reply = replace(await self._refused(ctx, command, error), refused=True)
        if reply.replayed:
            reply = await projection.as_stored_now(self, ctx, reply)
        return replace(reply, announce=reply.announce or ctx.request_id)

    async def _refused(self, ctx: Context, command: Command, error: ShutboxError) -> Reply:
        """The error in the user's language; a refused click also refreshes its game message."""
        if isinstance(error, Unreadable):  # that one record: nothing to refresh it from
            self.contained(ctx.scope, error)
            return Reply(private=await self.say(ctx, answer_key(error, ctx.user)))
        reply = Reply(private=await self.say(ctx, error.key, **error.params))
        clicked = clicked_button(command)
        if clicked is None or isinstance(error, StoreUnavailable):
            return reply  # Redis just failed: reading it again would only keep the player waiting
        return await projection.refreshed(self, ctx, clicked, reply)

    async def _through_middleware(self, ctx: Context, command: Command) -> Reply:
        """The command through the middleware to its handler; errors are raised, not worded."""
        if self._pipeline is None:
            self._pipeline = chain(self.middleware, self._execute)
        return await self._pipeline(ctx, command)

    async def _execute(self, ctx: Context, command: Command) -> Reply:
        """The command's handler; a repeated delivery refused on the way gets its first result."""
        try:
            return await HANDLERS[type(command)].run(self, ctx, command)
        except ShutboxError as error:
            first = await projection.first_result(self, ctx, error)
            if first is None:
                raise
            return first

    async def sweep(
        self, platform: str | None = None, owns: Callable[[Scope], bool] | None = None
    ) -> list[tuple[Scope, Reply]]:
        """Apply every passed deadline of `platform` (the servers `owns` accepts) as a
        `Timeout` through this manager's middleware (sweep.py)."""
        return await sweep.sweep(self, self._through_middleware, platform, owns)

    async def current(self, ctx: Context) -> GameRecord | None:
        """The channel's running game, if any (adapters use it to find the game message); None
        for one that can't be read (a command in the channel says so)."""
        try:
            return await record_of(self, ctx.scope, ctx.channel)
        except Unreadable as error:
            self.contained(ctx.scope, error)
            return None

    async def attach_message(self, ctx: Context, message: str) -> None:
        """Remember the platform's id of the game message so it can be edited after a restart."""
        if await self.store.attach(ctx.scope, ctx.channel, message):
            note_message(self, ctx.scope, ctx.channel, message)

    def show_later(self, scope: Scope, channel: str) -> None:
        projection.show_later(self, scope, channel)

    async def publishable(self, scope: Scope, reply: Reply) -> tuple[str, ...]:
        return await projection.publishable(self, scope, reply)

    async def post_game_once(
        self, scope: Scope, key: str, post: Callable[[], Awaitable[str]],
        seconds: int = projection.POST_CLAIM_SECONDS,
    ) -> tuple[str, bool]:  # fmt: skip
        return await projection.post_game_once(self, scope, key, post, seconds)
