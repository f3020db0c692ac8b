"""Commands reach their handler through the middleware, and every command has a handler."""

from __future__ import annotations

import pytest

from core.game.errors import StaleAction
from core.service.api.commands import AddBot, Command, Help, Join, Timeout
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.services import command_types
from core.service.model.views import Reply
from core.service.pipeline.bus import Middleware, Next, chain, command_name
from core.service.pipeline.manager import HANDLERS

CTX = Context(Scope("test", "guild"), "c1", "ann", "Ann")


def test_every_command_has_a_handler() -> None:
    """The handler table answers each command class, and nothing else."""
    assert set(HANDLERS) == command_types()


def test_a_command_is_named_by_its_class() -> None:
    assert [command_name(c) for c in (AddBot(), Help, Timeout(3))] == [
        "add_bot", "help", "timeout",
    ]  # fmt: skip


async def test_the_first_middleware_runs_outermost() -> None:
    """Each middleware wraps the ones after it and sees what the handler answered."""
    seen: list[str] = []

    def named(name: str) -> Middleware:
        async def middleware(ctx: Context, command: Command, call_next: Next) -> Reply:
            seen.append(f"{name} in")
            reply = await call_next(ctx, command)
            seen.append(f"{name} out")
            return reply

        return middleware

    async def handler(ctx: Context, command: Command) -> Reply:
        seen.append(command_name(command))
        return Reply(private="done")

    run = chain([named("outer"), named("inner")], handler)
    assert (await run(CTX, Join())).private == "done"
    assert seen == ["outer in", "inner in", "join", "inner out", "outer out"]


async def test_a_middleware_sees_the_handler_s_error() -> None:
    """A refusal comes back through the middleware as the error it is."""
    caught: list[str] = []

    async def watch(ctx: Context, command: Command, call_next: Next) -> Reply:
        try:
            return await call_next(ctx, command)
        except StaleAction as error:
            caught.append(error.key)
            raise

    async def handler(ctx: Context, command: Command) -> Reply:
        raise StaleAction()

    with pytest.raises(StaleAction):
        await chain([watch], handler)(CTX, Join())
    assert caught == ["error.stale"]
