"""Turn calls on any platform: the last turn's call taken down, then this turn's posted, each
once across every process (claimed like a game post) and remembered for `CALL_KEPT_SECONDS`.
A platform gives only how it posts a call and how it deletes one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from core.service.api.service import Service
from core.service.features.pings import CALL_KEPT_SECONDS
from core.service.model.context import Context
from core.service.model.views import Reply, TurnCall

Post = Callable[[TurnCall], Awaitable[str]]  # the call posted: its message id
Delete = Callable[[str, str], Awaitable[None]]  # (channel, message id) taken down


async def show_calls(
    service: Service, ctx: Context, reply: Reply, post: Post, delete: Delete
) -> None:
    """Take the last turn's call down, then post this turn's."""
    channel = reply.game.channel if reply.game is not None else ctx.channel
    if reply.uncall:
        posted, ours = await service.post_game_once(ctx.scope, f"ping:{reply.uncall}", _none,
                                                    CALL_KEPT_SECONDS)  # fmt: skip
        if posted and not ours:
            await delete(channel, posted)
    call = reply.call
    if call is not None:
        await service.post_game_once(ctx.scope, f"ping:{call.key}",
                                     lambda: post(call), CALL_KEPT_SECONDS)  # fmt: skip


async def _none() -> str:
    return ""  # nothing to post: the claim only reads the call already there
