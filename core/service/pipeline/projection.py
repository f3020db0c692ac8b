"""The game message as a projection of Redis: refreshes, claims, and commits of unknown outcome.

Functions of the runtime (runtime.py). Whatever the chat shows is rebuilt from what Redis
holds: a click refused on an outdated message, a repeated delivery, or a commit whose reply was
lost all end with the game as stored; posts and announcements are claimed in Redis so each
happens once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import replace

from core.game.errors import ShutboxError
from core.service.model import keys
from core.service.model.buttons import ButtonId
from core.service.model.commit import Scope, Status
from core.service.model.context import Context
from core.service.model.outcomes import resolve_lost
from core.service.model.ports import OutcomeUnknown, StoreUnavailable
from core.service.model.unreadable import Unreadable
from core.service.model.views import GameView, Reply
from core.service.pipeline.cached import forget_balances, fresh_record
from core.service.pipeline.runtime import GameRuntime
from core.service.show import present

ANNOUNCE_SECONDS = 3600  # as long as a request's result is kept
POST_CLAIM_SECONDS = 30  # a poster that died frees the game's first message after this
POST_WAITS = (0.05, 0.1, 0.2, 0.4, 0.8)  # a repeated delivery waits this long for the first post


def show_later(rt: GameRuntime, scope: Scope, channel: str) -> None:
    """The platform did not let the game message update: the next sweep shows the game as
    Redis holds it (the same catch-up as after a commit of unknown outcome)."""
    rt.unresolved.add((scope, channel))


async def still_unknown(rt: GameRuntime, ctx: Context, lost: OutcomeUnknown) -> Reply:
    """A commit's reply was lost and Redis has not said yet what became of it."""
    if lost.commit.channel is not None:  # a game: the sweep shows it once Redis is back
        rt.unresolved.add((ctx.scope, ctx.channel))
        return Reply(private=await rt.say(ctx, "outcome.unknown"))
    forget_balances(rt, ctx.scope)  # chips only (daily, grant): read them afresh
    try:
        result = await resolve_lost(rt.store, lost.commit, rt.resolve_pauses, asyncio.sleep,
                                    rt.resolve_budget)  # fmt: skip
    except OutcomeUnknown:
        return Reply(private=await rt.say(ctx, "outcome.unknown_chips"))
    done = result.status is Status.DUPLICATE
    return Reply(private=await rt.say(ctx, "outcome.done" if done else "outcome.not_applied"))


async def first_result(rt: GameRuntime, ctx: Context, error: ShutboxError) -> Reply | None:
    """A repeated delivery of a request another process applied first gets its first result.

    The repeat usually fails on its own (its message is now outdated) before it ever reaches
    the commit script that would have recognised it, so look the request id up here.
    """
    if ctx.request_id is None or isinstance(error, StoreUnavailable):
        return None
    try:
        stored = await rt.store.request_result(ctx.scope, ctx.request_id)
    except StoreUnavailable:
        return None
    return Reply.from_json(stored, replayed=True) if stored else None


async def publishable(rt: GameRuntime, scope: Scope, reply: Reply) -> tuple[str, ...]:
    """The reply's public texts if this delivery is the first to announce them, else none.

    Whichever process or delivery gets there first posts the summaries; the claim is taken
    just before posting, so a process that died before it leaves them to the retry.
    """
    if not reply.public or not reply.announce:
        return reply.public
    try:
        first = await rt.store.claim(scope, keys.announced(reply.announce), ANNOUNCE_SECONDS)
    except StoreUnavailable:
        return () if reply.replayed else reply.public
    return reply.public if first else ()


async def post_game_once(
    rt: GameRuntime, scope: Scope, key: str, post: Callable[[], Awaitable[str]],
    seconds: int = POST_CLAIM_SECONDS,
) -> tuple[str, bool]:  # fmt: skip
    """Post a game's message unless another delivery does: (its id, whether we posted it).

    `key` names the message (the game, and the id of a message that is gone). A repeated
    delivery waits for the first one's message id, to edit that message; "" if it is late.
    """
    name = keys.posted(key)
    if await rt.store.claim(scope, name, seconds):
        try:
            message = await post()
        except Exception:
            # The platform refused the post: whoever shows the game next (the sweep's
            # catch-up, a click) posts it, rather than waiting out the claim.
            with suppress(StoreUnavailable):
                await rt.store.release(scope, name)
            raise
        await rt.store.note_claim(scope, name, message, seconds)
        return message, True
    for pause in POST_WAITS:
        if posted := await rt.store.claim_note(scope, name):
            return posted, False
        await asyncio.sleep(pause)
    return "", False


async def refreshed(rt: GameRuntime, ctx: Context, clicked: ButtonId, refusal: Reply) -> Reply:
    """A refused click, with the game message brought up to what Redis holds.

    A button of the game that just ended shows its final view, and the end's summaries
    if nobody announced them yet (the process that ended it may have died first).
    """
    view = await _refreshed_view(rt, ctx, clicked)
    if view is not None:
        return replace(refusal, game=view)
    try:
        final = await rt.store.final_result(ctx.scope, ctx.channel)
    except StoreUnavailable:
        return refusal
    if final is None:
        return refusal
    request, result = final
    ended = Reply.from_json(result)
    if ended.game is None or ended.game.game_id != clicked.game:
        return refusal
    return replace(
        refusal, game=ended.game, public=ended.public, announce=request,
        review=ended.review, reviewed=ended.reviewed,
    )  # fmt: skip


async def _refreshed_view(rt: GameRuntime, ctx: Context, clicked: ButtonId) -> GameView | None:
    """The game as it stands, when the clicked message shows something else."""
    try:
        record = await fresh_record(rt, ctx.scope, ctx.channel)
    except (StoreUnavailable, Unreadable):  # the command's own answer stands
        return None
    # Another game's button (an earlier game, or forged) says nothing about this one.
    if record is None or record.game_id != clicked.game or record.version == clicked.version:
        return None
    return present.game_view(record)


async def as_stored_now(rt: GameRuntime, ctx: Context, reply: Reply) -> Reply:
    """A repeated delivery's first result, its game view brought up to what Redis holds."""
    shown = reply.game
    if shown is None:
        return reply
    try:
        record = await fresh_record(rt, ctx.scope, ctx.channel)
    except (StoreUnavailable, Unreadable):  # the command's own answer stands
        return reply
    if record is None:
        return reply if shown.over else replace(reply, game=None)
    if (record.game_id, record.version) == (shown.game_id, shown.version):
        return replace(reply, game=replace(shown, message=record.message))
    return replace(reply, game=present.game_view(record))


async def resolved_views(rt: GameRuntime, platform: str | None) -> list[tuple[Scope, Reply]]:
    """The game message of every channel whose outcome was unknown (or whose message could not
    be updated), as Redis now holds the game."""
    shown: list[tuple[Scope, Reply]] = []
    for scope, channel in sorted(rt.unresolved, key=lambda pair: (pair[0].tag, pair[1])):
        if platform is not None and scope.platform != platform:
            continue
        try:
            record = await fresh_record(rt, scope, channel)
        except StoreUnavailable:
            return shown  # still away: try again on the next sweep
        except Unreadable as error:  # nothing to show of it; the other games go on
            rt.contained(scope, error)
            record = None
        rt.unresolved.discard((scope, channel))
        if record is not None:
            shown.append((scope, Reply(game=present.game_view(record))))
    return shown
