"""What a handler may use, passed in explicitly: the store, the clock, the server's settings and
the caller's language (cosmicpython's bootstrap injects a handler's dependencies the same way).

A feature's handler is `async (services, ctx, command) -> Reply`; it reaches nothing else of the
manager. The game machinery's runtime (core/service/pipeline/runtime.py `GameRuntime`, which the
GameManager the bot builds is) is the one `Services`.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.membership import Membership
from core.service.model.ports import GameStore
from core.service.model.settings import ServerConfig
from core.service.model.unreadable import Unreadable
from core.service.model.views import Reply


class Command:
    """The base of every command value (core/service/api/commands.py and each feature's own):
    a frozen dataclass a surface builds and `GameManager.handle` runs."""

    __slots__ = ()


class Services(Protocol):
    """The dependencies every handler receives."""

    @property
    def store(self) -> GameStore: ...

    @property
    def clock(self) -> Callable[[], float]: ...

    @property
    def membership(self) -> Membership:
        """Who has left their server, as the platform says."""
        ...

    async def server_config(self, scope: Scope) -> ServerConfig:
        """The server's settings (cached for a few seconds)."""
        ...

    async def private_lang(self, ctx: Context) -> str:
        """The language of a private answer: the member's own where the platform gives it."""
        ...

    def forget(self, scope: Scope, accounts: Sequence[str] = (), *, every: bool = False) -> None:
        """What this process keeps of `scope` is stale after a handler's own write: these
        accounts' balances (`every`: all of them, and the server's settings)."""
        ...

    def contained(self, scope: Scope, error: Unreadable) -> None:
        """A record found unreadable at the boundary of its game, member or channel: counted."""
        ...

    def picture_note(self, scope: Scope, style: str) -> str | None:
        """Why a game in `style` shows no picture here (a catalog key), or None if it does."""
        ...


# What a handler is given: `Services`, or the runtime of the game machinery.
S_contra = TypeVar("S_contra", contravariant=True)
C = TypeVar("C", bound=Command)

# `(services, ctx, command) -> Reply`: a feature's handler is given `Services`; the game
# machinery's own handlers the runtime it shares (core/service/pipeline/runtime.py).
Handler = Callable[[S_contra, Context, C], Awaitable[Reply]]


@dataclass(frozen=True, slots=True)
class Route(Generic[S_contra, C]):
    """One command class and the handler that answers it. Built as `Route(Start, start)`, mypy
    checks that the handler takes that command; `run` hands it only a command of that class."""

    command: type[C]
    handler: Handler[S_contra, C]

    async def run(self, services: S_contra, ctx: Context, command: Command) -> Reply:
        if not isinstance(command, self.command):
            raise TypeError(f"{type(command).__name__} is not {self.command.__name__}")
        return await self.handler(services, ctx, command)


class Runs(Protocol[S_contra]):
    """An entry of a handler table, whatever command it answers (a `Route`, a `Subcommand`)."""

    @property
    def command(self) -> type[Command]: ...

    async def run(self, services: S_contra, ctx: Context, command: Command) -> Reply: ...


def command_types() -> set[type[Command]]:
    """Every command class defined so far (the manager's import defines them all): each as its
    module names it, since a slotted dataclass replaces the class its body first made."""
    found: set[type[Command]] = set()
    waiting = [Command]
    while waiting:
        for kind in waiting.pop().__subclasses__():
            waiting.append(kind)
            if getattr(sys.modules[kind.__module__], kind.__name__, None) is kind:
                found.add(kind)
    return found
