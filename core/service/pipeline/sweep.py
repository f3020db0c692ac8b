"""Timers: every passed deadline becomes a `Timeout` command, run like a click.

Any process may sweep (the commit's version check makes a timeout and a late click race
safely). The `Timeout` goes through the manager's middleware like any command, so it is timed
and counted like one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from core.game import actions
from core.game.errors import ShutboxError
from core.service.api.commands import Timeout
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.ports import OutcomeUnknown
from core.service.model.unreadable import Unreadable
from core.service.model.views import Reply
from core.service.pipeline.bus import Handlers
from core.service.pipeline.commit_loop import CommitLoop
from core.service.pipeline.projection import Projection

SWEEP_CLOCK = "clock"  # the user a timeout acts as
SET_ASIDE_SECONDS = 60  # a game that can't be read is looked at again after this


class Sweeper(CommitLoop, Projection):
    """The deadline sweep, and the handler of the `Timeout` it sends."""

    async def sweep(
        self, platform: str | None = None, owns: Callable[[Scope], bool] | None = None
    ) -> list[tuple[Scope, Reply]]:
        """Apply every passed deadline (any process may sweep; the commit makes it safe).

        Reads only the servers with a deadline due (core/store/deadlines.py), of `platform` and,
        when given, those `owns` accepts (e.g. the guilds of this process's Discord shards).
        Also shows the games whose last commit had an unknown outcome, once Redis answers.
        """
        now = int(self.clock())
        replies = await self._settled_views(platform)
        for scope in await self.store.due_servers(now):
            if platform is not None and scope.platform != platform:
                continue
            if owns is None or owns(scope):
                replies.extend((scope, reply) for reply in await self._sweep_server(scope, now))
        return replies

    async def _sweep_server(self, scope: Scope, now: int) -> list[Reply]:
        """Expire the server's due channels, then move its index entry on to what is next."""
        # Read the epoch before the deadlines: see core/store/deadlines.py.
        epoch = await self.store.due_epoch(scope)
        replies = []
        for channel in await self.store.due(scope, now):
            try:
                reply = await self._expire(scope, channel, now)
            except Unreadable as error:
                await self._set_aside(scope, channel, now, error)
                continue
            if reply is not None:
                replies.append(reply)
        await self.store.swept(scope, epoch)
        return replies

    async def _set_aside(self, scope: Scope, channel: str, now: int, error: Unreadable) -> None:
        """A game whose record (or a player's balance) can't be read can't time out: its
        deadline moves on by `SET_ASIDE_SECONDS`, so the server's other games keep theirs and
        the sweep does not meet it again every second. An admin's `stop` clears the game."""
        self._contained(scope, error)
        self._forget(scope, channel)
        await self.store.park_deadline(scope, channel, now, now + SET_ASIDE_SECONDS)

    async def _expire(self, scope: Scope, channel: str, now: int) -> Reply | None:
        self._forget(scope, channel)  # another process may have moved the game on
        record = await self._record(scope, channel)
        if record is None or not record.deadline or record.deadline > now:
            return None
        request = f"timeout:{record.game_id}:{record.version}"
        ctx = Context(scope, channel, SWEEP_CLOCK, SWEEP_CLOCK, request_id=request)
        try:
            reply = await self._through_middleware(ctx, Timeout(record.version))
        except OutcomeUnknown:
            self.unsettled.add((scope, channel))
            return None
        except Unreadable:
            raise  # not a race: this game can't move (see `_set_aside`)
        except ShutboxError:
            return None  # a click won the race: the timeout no longer applies
        # Another process applied this deadline first: it shows and announces it.
        return None if reply.replayed else replace(reply, announce=request)

    async def _timeout(self, ctx: Context, command: Timeout) -> Reply:
        return await self._act(ctx, actions.Timeout(SWEEP_CLOCK, version=command.version))


SWEEP_HANDLERS: Handlers = {Timeout: Sweeper._timeout}
