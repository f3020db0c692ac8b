"""The GameManager: the one API every surface calls, for every command and button (SPEC 3-6).

`handle(ctx, command)` is the one entry point: the command runs through the middleware the
manager was built with, then the handler `HANDLERS` names for its class. The manager owns
concurrency (core/service/pipeline/commit_loop.py) and turns every user error into a private,
translated reply. Its parts: manager_base (state and caches), commit_loop, opening,
game_commands, clicks, server_commands, sweep, projection.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

from core.game.errors import ShutboxError
from core.service.api.commands import Command
from core.service.features.tournaments.command import OpenTable
from core.service.model.context import Context
from core.service.model.ports import OutcomeUnknown, StoreUnavailable
from core.service.model.record import GameRecord
from core.service.model.unreadable import Unreadable, answer_key
from core.service.model.views import Reply
from core.service.pipeline.bus import Handlers, chain
from core.service.pipeline.challenge_commands import challenge_context
from core.service.pipeline.clicks import CLICK_HANDLERS, Clicks, clicked_button
from core.service.pipeline.commit_loop import Busy
from core.service.pipeline.game_commands import LOBBY_HANDLERS
from core.service.pipeline.subcommands import SUBCOMMANDS
from core.service.pipeline.sweep import SWEEP_CLOCK, SWEEP_HANDLERS, Sweeper
from core.service.pipeline.tournament_tables import open_table

__all__ = ["HANDLERS", "SWEEP_CLOCK", "Busy", "GameManager"]

# Each command class and the handler that answers it: every subcommand's from its entry in the
# subcommand table, then the buttons', the lobby's typed controls' and the sweep's.
HANDLERS: Handlers = {
    **{entry.command: entry.handler for entry in SUBCOMMANDS},
    **CLICK_HANDLERS, **LOBBY_HANDLERS, **SWEEP_HANDLERS,
    OpenTable: open_table,  # a tournament's table (core/service/pipeline/tournament_tables.py)
}  # fmt: skip


class GameManager(Clicks, Sweeper):
    """Platform-neutral: adapters build a `Context` and a command, and render the `Reply`."""

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
            reply = await self._still_unknown(ctx, lost)
        except ShutboxError as error:
            reply = replace(await self._refused(ctx, command, error), refused=True)
        if reply.replayed:
            reply = await self._as_stored_now(ctx, reply)
        return replace(reply, announce=reply.announce or ctx.request_id)

    async def _refused(self, ctx: Context, command: Command, error: ShutboxError) -> Reply:
        """The error in the user's language; a refused click also refreshes its game message."""
        if isinstance(error, Unreadable):  # that one record: nothing to refresh it from
            self._contained(ctx.scope, error)
            return Reply(private=await self.say(ctx, answer_key(error, ctx.user)))
        reply = Reply(private=await self.say(ctx, error.key, **error.params))
        clicked = clicked_button(command)
        if clicked is None or isinstance(error, StoreUnavailable):
            return reply  # Redis just failed: reading it again would only keep the player waiting
        return await self._refreshed(ctx, clicked, reply)

    async def _through_middleware(self, ctx: Context, command: Command) -> Reply:
        if self._pipeline is None:
            self._pipeline = chain(self.middleware, self._execute)
        return await self._pipeline(ctx, command)

    async def _execute(self, ctx: Context, command: Command) -> Reply:
        """The command's handler; a repeated delivery refused on the way gets its first result."""
        try:
            return await HANDLERS[type(command)](self, ctx, command)
        except ShutboxError as error:
            first = await self._first_result(ctx, error)
            if first is None:
                raise
            return first

    async def current(self, ctx: Context) -> GameRecord | None:
        """The channel's running game, if any (adapters use it to find the game message); None
        for one that can't be read (a command in the channel says so)."""
        try:
            return await self._record(ctx.scope, ctx.channel)
        except Unreadable as error:
            self._contained(ctx.scope, error)
            return None

    async def attach_message(self, ctx: Context, message: str) -> None:
        """Remember the platform's id of the game message so it can be edited after a restart."""
        if await self.store.attach(ctx.scope, ctx.channel, message):
            record = self.games.get((ctx.scope.tag, ctx.channel))
            if record is not None:
                self.games[(ctx.scope.tag, ctx.channel)] = record.evolve(message=message)
