"""A table of players around one channel, driven through a real GameManager on a real Redis."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from core.game.dice import DiceSource, SeededDice
from core.service.api.commands import Click
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.views import Reply
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore

SCOPE = Scope("test", "guild")
_requests = itertools.count()


@dataclass
class Clock:
    now: float = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Table:
    manager: GameManager
    channel: str = "c1"
    last: Reply = field(default_factory=Reply)

    def ctx(self, user: str, *, request: str | None = None, admin: bool = False) -> Context:
        request = request or f"r{next(_requests)}"
        return Context(SCOPE, self.channel, user.lower(), user, admin=admin, request_id=request)

    async def to_act(self) -> str | None:
        record = await self.manager.current(self.ctx("x"))
        seat = record.state.to_act if record else None
        return seat.name if seat else None

    def button(self, label: str | None = None, index: int = 0) -> str:
        """The id of a button on the last game message, by label or position."""
        assert self.last.game is not None
        buttons = [b for row in self.last.game.rows for b in row]
        if label is not None:
            return next(b.action_id for b in buttons if b.label == label)
        return buttons[index].action_id

    async def press(self, user: str, label: str | None = None, **kw: object) -> Reply:
        reply = await self.manager.handle(self.ctx(user, **kw), Click(self.button(label)))  # type: ignore[arg-type]
        if reply.game is not None:
            self.last = reply
        return reply

    async def play_out(self) -> Reply:
        """Everyone presses their first button until the game is over."""
        reply = self.last
        while (player := await self.to_act()) is not None:
            reply = await self.press(player)
        return reply


def manager(
    store: RedisStore, dice: DiceSource | None = None, clock: Clock | None = None
) -> GameManager:
    return GameManager(store, clock=clock or Clock(), dice=dice or SeededDice(1))
