"""Timers: every passed deadline becomes a `Timeout` command, run like a click.

Any process may sweep (the commit's version check makes a timeout and a late click race
safely). The `Timeout` goes through the manager's middleware like any command (`run`, the
manager's own path to the handler table), so it is timed and counted like one; its handler,
`timeout`, hands the game's `Timeout` action to the commit loop (commit_loop.py `act`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from core.game import actions
from core.game.errors import ShutboxError
from core.service.api.commands import Timeout
from core.service.features.tournaments.starts import start_due
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.ports import OutcomeUnknown
from core.service.model.services import Route
from core.service.model.unreadable import Unreadable
from core.service.model.views import Reply
from core.service.pipeline.bus import Next
from core.service.pipeline.cached import forget_game, fresh_record
from core.service.pipeline.commit_loop import act
from core.service.pipeline.projection import resolved_views
from core.service.pipeline.runtime import GameRuntime

SWEEP_CLOCK = "clock"  # the user a timeout acts as
SET_ASIDE_SECONDS = 60  # a game that can't be read is looked at again after this


async def sweep(
    rt: GameRuntime,
    run: Next,
    platform: str | None = None,
    owns: Callable[[Scope], bool] | None = None,
) -> list[tuple[Scope, Reply]]:
    """Apply every passed deadline (any process may sweep; the commit makes it safe).

    Reads only the servers with a deadline due (core/store/deadlines.py), of `platform` and,
    when given, those `owns` accepts (e.g. the guilds of this process's Discord shards).
    Also shows the games whose last commit had an unknown outcome, once Redis answers.
    """
    now = int(rt.clock())
    replies = await resolved_views(rt, platform)
    for scope in await rt.store.due_servers(now):
        if platform is not None and scope.platform != platform:
            continue
        if owns is None or owns(scope):
            replies.extend((scope, reply) for reply in await _sweep_server(rt, run, scope, now))
    # Tournaments whose UTC start time has come (core/service/features/tournaments/starts.py).
    replies.extend(await start_due(rt, now, platform, owns))
    return replies


async def _sweep_server(rt: GameRuntime, run: Next, scope: Scope, now: int) -> list[Reply]:
    """Expire the server's due channels, then move its index entry on to what is next."""
    # Read the epoch before the deadlines: see core/store/deadlines.py.
    epoch = await rt.store.due_epoch(scope)
    replies = []
    for channel in await rt.store.due(scope, now):
        try:
            reply = await _expire(rt, run, scope, channel, now)
        except Unreadable as error:
            await _set_aside(rt, scope, channel, now, error)
            continue
        if reply is not None:
            replies.append(reply)
    await rt.store.swept(scope, epoch)
    return replies


async def _set_aside(
    rt: GameRuntime, scope: Scope, channel: str, now: int, error: Unreadable
) -> None:
    """A game whose record (or a player's balance) can't be read can't time out: its
    deadline moves on by `SET_ASIDE_SECONDS`, so the server's other games keep theirs and
    the sweep does not meet it again every second. An admin's `stop` clears the game."""
    rt.contained(scope, error)
    forget_game(rt, scope, channel)
    await rt.store.park_deadline(scope, channel, now, now + SET_ASIDE_SECONDS)


async def _expire(rt: GameRuntime, run: Next, scope: Scope, channel: str, now: int) -> Reply | None:
    """The channel's passed deadline as a `Timeout` command, run like a click."""
    record = await fresh_record(rt, scope, channel)  # another process may have moved it on
    if record is None or not record.deadline or record.deadline > now:
        return None
    request = f"timeout:{record.game_id}:{record.version}"
    ctx = Context(scope, channel, SWEEP_CLOCK, SWEEP_CLOCK, request_id=request)
    try:
        reply = await run(ctx, Timeout(record.version))
    except OutcomeUnknown:
        rt.unresolved.add((scope, channel))
        return None
    except Unreadable:
        raise  # not a race: this game can't move (see `_set_aside`)
    except ShutboxError:
        return None  # a click won the race: the timeout no longer applies
    # Another process applied this deadline first: it shows and announces it.
    return None if reply.replayed else replace(reply, announce=request)


async def timeout(rt: GameRuntime, ctx: Context, command: Timeout) -> Reply:
    """A passed deadline, as the game's own `Timeout` action through the commit loop."""
    return await act(rt, ctx, actions.Timeout(SWEEP_CLOCK, version=command.version))


SWEEP_ROUTES = (Route(Timeout, timeout),)
