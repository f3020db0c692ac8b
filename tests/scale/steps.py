"""One step of a match as an adapter hands it to the manager, and a bot process that runs steps.

python -m tests.scale.steps <redis-url>

The process prints `ready`, then reads one step a line (JSON) and answers each with one line: the
reply's private note, the game version it shows and its public texts. Its GameManager keeps its
own cache across steps, as a running bot does, so a step sent to one process after the other
process moved the game on meets an outdated cache. Dice are provably fair with one fixed seed, so
every process (and a single-process reference run) rolls the same dice for the same game state.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aioredis

from core.game.dice import FairDice
from core.service.api.commands import (
    AddBot,
    Begin,
    Cancel,
    Click,
    Command,
    Daily,
    Give,
    Grant,
    Join,
    Leave,
    Start,
    Stop,
)
from core.service.features.gifts import Recipient, Standing
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.settings import StartOptions
from core.service.model.views import Reply
from core.service.pipeline import opening as opening_module
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore

SERVER_SEED = "5e" * 32


def fixed_fair_dice(client_seed: str) -> FairDice:
    """The same seeds for every new fair match, whichever process opens it."""
    return FairDice(SERVER_SEED, "matrix")


@dataclass(frozen=True, slots=True)
class Step:
    op: str  # start, join, leave, bot, begin, cancel, stop, click, daily, grant, give
    user: str
    scope: tuple[str, str]
    channel: str
    request: str
    options: dict[str, Any] = field(default_factory=dict)
    button: str = ""
    target: str = ""
    amount: int = 0
    admin: bool = False

    def to_json(self) -> str:
        return json.dumps({
            "op": self.op, "user": self.user, "scope": list(self.scope), "channel": self.channel,
            "request": self.request, "options": self.options, "button": self.button,
            "target": self.target, "amount": self.amount, "admin": self.admin,
        })  # fmt: skip

    @classmethod
    def from_json(cls, text: str) -> Step:
        data = json.loads(text)
        data["scope"] = tuple(data["scope"])
        return cls(**data)

    @property
    def ctx(self) -> Context:
        return Context(
            Scope(*self.scope), self.channel, self.user, self.user.title(), admin=self.admin,
            request_id=self.request,
        )  # fmt: skip


async def run_step(manager: GameManager, step: Step) -> Reply:
    """The manager call an adapter makes for this step."""
    ctx = step.ctx
    if step.op == "start":
        return await manager.handle(ctx, Start(StartOptions(**step.options, fair=True)))
    if step.op == "click":
        return await manager.handle(ctx, Click(step.button))
    if step.op == "grant":
        return await manager.handle(
            ctx, Grant(step.target, step.target.title(), step.amount, standing=Standing.MEMBER)
        )
    if step.op == "give":
        recipient = Recipient(step.target, step.target.title(), Standing.MEMBER)
        return await manager.handle(ctx, Give(recipient, step.amount))
    commands: dict[str, Command] = {
        "join": Join(), "leave": Leave(), "bot": AddBot(), "begin": Begin(), "cancel": Cancel(),
        "stop": Stop(), "daily": Daily(),
    }  # fmt: skip
    return await manager.handle(ctx, commands[step.op])


def answer(reply: Reply) -> dict[str, Any]:
    return {
        "private": reply.private,
        "version": reply.game.version if reply.game is not None else None,
        "public": list(reply.public),
    }


async def serve(url: str) -> None:
    opening_module.new_fair_dice = fixed_fair_dice  # type: ignore[attr-defined]
    client = aioredis.from_url(url, decode_responses=True, socket_timeout=5)
    manager = GameManager(RedisStore(client))
    print("ready", flush=True)
    while line := await asyncio.to_thread(sys.stdin.readline):
        reply = await run_step(manager, Step.from_json(line))
        print(json.dumps(answer(reply)), flush=True)
    await client.aclose()


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1]))
