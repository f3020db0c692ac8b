"""A handler table's entry answers its own command class, and no other."""

from __future__ import annotations

import pytest

from core.service.api.commands import Begin, Cancel, Click
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.services import Route
from core.service.model.views import Reply
from core.service.pipeline.manager import HANDLERS

CTX = Context(Scope("test", "guild"), "c1", "ann", "Ann")


async def _begun(services: object, ctx: Context, command: Begin) -> Reply:
    return Reply(private=f"begun by {ctx.user}")


async def test_a_route_runs_its_handler_for_its_command() -> None:
    assert await Route(Begin, _begun).run(None, CTX, Begin()) == Reply(private="begun by ann")


async def test_a_route_refuses_a_command_of_another_class() -> None:
    """A table that names the wrong entry for a class fails loudly, not with a wrong answer."""
    with pytest.raises(TypeError, match="Cancel is not Begin"):
        await Route(Begin, _begun).run(None, CTX, Cancel())


def test_every_entry_of_the_handler_table_answers_the_class_it_is_filed_under() -> None:
    assert [kind for kind, entry in HANDLERS.items() if entry.command is not kind] == []


def test_a_click_carries_its_button_read_once() -> None:
    """The id is read where the command is made; a forged one reads as nothing."""
    pressed = Click("stb:roll:ab12cd34:7:2").pressed
    assert pressed is not None and (pressed.verb, pressed.game, pressed.version) == (
        "roll",
        "ab12cd34",
        7,
    )
    assert Click("stb:roll:ab12cd34:7:2;drop").pressed is None
