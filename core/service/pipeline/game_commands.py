"""The handlers of the channel's game: open it, seat and unseat players, begin, end, review.

Each handler is `async (runtime, ctx, command) -> Reply`; the subcommand table (subcommands.py)
says which command each one answers, and `LOBBY_ROUTES` for the lobby's controls a playground
types.
"""

from __future__ import annotations

from core.game import actions
from core.game.payments import pot_account
from core.service.api.commands import (
    AddBot,
    Begin,
    Cancel,
    Join,
    Leave,
    Review,
    Solo,
    Start,
    Stop,
)
from core.service.features import reviews
from core.service.model import keys
from core.service.model.context import Context
from core.service.model.services import Route
from core.service.model.unreadable import Unreadable
from core.service.model.views import Reply
from core.service.pipeline.cached import forget_game, fresh_record
from core.service.pipeline.commit_loop import act
from core.service.pipeline.opening import open_game
from core.service.pipeline.runtime import GameRuntime
from core.text.i18n import t


async def start(rt: GameRuntime, ctx: Context, command: Start) -> Reply:
    return await open_game(rt, ctx, command.options, solo=False)


async def solo(rt: GameRuntime, ctx: Context, command: Solo) -> Reply:
    return await open_game(rt, ctx, command.options, solo=True)


async def join(rt: GameRuntime, ctx: Context, command: Join) -> Reply:
    return await act(rt, ctx, actions.Join(ctx.user, name=ctx.name))


async def leave(rt: GameRuntime, ctx: Context, command: Leave) -> Reply:
    return await act(rt, ctx, actions.Leave(ctx.user))


async def add_bot(rt: GameRuntime, ctx: Context, command: AddBot) -> Reply:
    return await act(rt, ctx, actions.AddBot(ctx.user))


async def begin(rt: GameRuntime, ctx: Context, command: Begin) -> Reply:
    return await act(rt, ctx, actions.Begin(ctx.user))


async def cancel(rt: GameRuntime, ctx: Context, command: Cancel) -> Reply:
    return await act(rt, ctx, actions.Cancel(ctx.user))


async def stop(rt: GameRuntime, ctx: Context, command: Stop) -> Reply:
    try:
        return await act(rt, ctx, actions.Stop(ctx.user, admin=ctx.admin, name=ctx.name))
    except Unreadable as error:
        if not ctx.admin or error.record != keys.game(ctx.channel):
            raise  # its host can't be read, so only an admin may clear it
        return await _clear_unreadable(rt, ctx, error)


async def _clear_unreadable(rt: GameRuntime, ctx: Context, error: Unreadable) -> Reply:
    """An admin's `stop` of a game that can't be read: the record goes, with its deadline.

    Who paid which ante is in that record, so no chip is moved by guessing: what the
    channel's pot holds stays there, and the answer says how much
    (docs/operate/failures.md).
    """
    rt.contained(ctx.scope, error)
    forget_game(rt, ctx.scope, ctx.channel)
    if not await rt.store.clear_unreadable_game(ctx.scope, ctx.channel, error.raw):
        return await stop(rt, ctx, Stop())  # replaced meanwhile: stop what is there now
    pot = pot_account(ctx.channel)
    try:
        held = (await rt.store.balances(ctx.scope, [pot])).get(pot, 0)
    except Unreadable:
        held = 0
    key = "stop.unreadable.pot" if held else "stop.unreadable"
    lang = (await rt.server_config(ctx.scope)).lang  # the channel's, as the game spoke
    public = t(lang, "notice.stopped", player=ctx.name)
    return Reply(private=await rt.say(ctx, key, chips=held), public=(public,))


async def review_last(rt: GameRuntime, ctx: Context, command: Review) -> Reply:
    """`/shutbox review`: the caller's last finished match here against perfect play."""
    return await review(rt, ctx, None)


async def review(rt: GameRuntime, ctx: Context, game: str | None) -> Reply:
    # a review reads the game as Redis holds it now
    current = await fresh_record(rt, ctx.scope, ctx.channel)
    lang = await rt.private_lang(ctx)
    text = await reviews.review_reply(rt.store, ctx, current, game, lang)
    return Reply(private=text)


# The lobby's buttons as commands (the playground types `bot`, `go`, `cancel`).
LOBBY_ROUTES = (Route(AddBot, add_bot), Route(Begin, begin), Route(Cancel, cancel))
