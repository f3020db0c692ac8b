"""What a surface may ask of the service: `handle` for every command, button and timer, and
three narrow calls beside it. Adapters (Discord, Slack, the playground) hold a `Service`, never
the manager itself; the composition root (bot/) builds the manager and configures it.

The delivery of a reply (core/service/api/delivery.py `deliver`) is the core's own code that
adapters run with their `Surface`; it asks the service for the claims that make a post happen
once (`Claims`), so a `Service` is also those claims. Adapters never call them themselves.
"""

from __future__ import annotations

from typing import Protocol

from core.service.api.delivery import Claims
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.record import GameRecord
from core.service.model.services import Command
from core.service.model.views import Reply


class Service(Claims, Protocol):
    async def handle(self, ctx: Context, command: Command) -> Reply:
        """Run one command; a user's mistake comes back as a private, translated reply."""
        ...

    async def current(self, ctx: Context) -> GameRecord | None:
        """The channel's running game, if any (to find or draw its message)."""
        ...

    async def private_lang(self, ctx: Context) -> str:
        """The language of a private line the surface words itself (its own errors)."""
        ...

    def show_later(self, scope: Scope, channel: str) -> None:
        """The platform did not let the game message update: the next sweep shows it."""
        ...
