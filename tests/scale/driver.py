"""One bot process for the scale test: its own GameManager on the shared Redis, pressing buttons.

python -m tests.scale.driver <redis-url> <plan.json> <out.json> <name>

It prints `ready`, waits for a line on stdin (so both processes start together), then plays
every seat of the plan to the end: the player to act presses a button of the game as Redis holds
it. Every few versions the click is one "delivered to both processes": the same button with the
same request id in each process. It writes what it clicked and every commit it applied.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from core.service.api import commands
from core.service.model.commit import Commit, CommitResult, Scope, Status
from core.service.pipeline.manager import GameManager
from core.store.redis_store import RedisStore
from tests.scale.play import Seat, fresh_record, turn_buttons

SHARED_EVERY = 3  # every third version, both processes get the same delivery


@dataclass(frozen=True, slots=True)
class Applied:
    """A commit this process's store saw succeed."""

    server: str
    channel: str
    expected: int | None
    version: int
    request_id: str | None
    ended: bool


@dataclass(frozen=True, slots=True)
class Click:
    server: str
    channel: str
    request_id: str
    shared: bool
    accepted: bool  # the reply showed the game (not a private refusal)


class RecordingStore(RedisStore):
    """A RedisStore that remembers every commit that applied (status OK)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.applied: list[Applied] = []

    async def commit(self, commit: Commit) -> CommitResult:
        result = await super().commit(commit)
        if result.status is Status.OK and commit.channel is not None:
            self.applied.append(Applied(
                commit.scope.server, commit.channel, commit.expected_version, commit.version,
                commit.request_id, commit.record is None,
            ))  # fmt: skip
        return result


def request_for(name: str, seat: Seat, version: int, attempt: int) -> tuple[str, bool]:
    """The request id of a click; a shared one is the same in both processes."""
    where = f"{seat.scope.server}:{seat.channel}:{version}"
    if version % SHARED_EVERY == 0:
        return f"both:{where}", True
    return f"{name}:{where}:{attempt}", False


async def drive(
    manager: GameManager, seat: Seat, name: str, rng: random.Random, max_clicks: int
) -> list[Click]:
    """Press buttons of one game until it is over."""
    clicks: list[Click] = []
    for attempt in range(max_clicks):
        record = await fresh_record(manager.store, seat)
        if record is None or record.state.to_act is None:
            return clicks
        request, shared = request_for(name, seat, record.version, attempt)
        buttons = turn_buttons(record)
        button = buttons[0] if shared else rng.choice(buttons)
        ctx = seat.ctx(record.state.to_act.id, request)
        reply = await manager.handle(ctx, commands.Click(button))
        accepted = reply.game is not None and reply.private is None  # a refusal says why
        clicks.append(Click(seat.scope.server, seat.channel, request, shared, accepted))
    raise RuntimeError(f"{seat} still running after {max_clicks} clicks")


async def run(url: str, plan: dict[str, Any], name: str) -> dict[str, Any]:
    client = aioredis.from_url(url, decode_responses=True)
    store = RecordingStore(client)
    manager = GameManager(store)
    seats = [Seat(Scope(*scope), channel) for *scope, channel in plan["seats"]]
    rng = random.Random(f"{name}:{plan['seed']}")
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    started = time.perf_counter()
    per_seat = await asyncio.gather(
        *(drive(manager, seat, name, rng, plan["max_clicks"]) for seat in seats)
    )
    seconds = time.perf_counter() - started
    await client.aclose()
    return {
        "seconds": seconds,
        "clicks": [asdict(click) for clicks in per_seat for click in clicks],
        "applied": [asdict(applied) for applied in store.applied],
    }


if __name__ == "__main__":
    url_arg, plan_arg, out_arg, name_arg = sys.argv[1:5]
    plan_data = json.loads(Path(plan_arg).read_text(encoding="utf-8"))
    report = asyncio.run(run(url_arg, plan_data, name_arg))
    Path(out_arg).write_text(json.dumps(report), encoding="utf-8")
