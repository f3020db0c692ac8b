"""Two bot processes behind one channel take turns handling its commands and clicks.

Every step of a staked match (commands, lobby buttons, turns, stop, daily, grant) goes to one
OS process and the next step to the other, so each step meets a cache one step old. The chips
must come out exactly as when one process handles everything: per player, not just in total.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from core.service.model.commit import MINT, Scope
from core.service.pipeline.manager import GameManager
from core.service.show import present
from core.store.redis_store import RedisStore
from tests.scale.play import Seat, fresh_record, turn_buttons
from tests.scale.steps import Step, answer, fixed_fair_dice, run_step

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("ann", "bob", "cid")
CHANNEL = "table"
MAX_TURN_CLICKS = 400

# What the players do, resolved against the game as Redis holds it when each step is sent:
# ("cmd", op, user, extra) a slash command; ("press", user, label) a lobby button;
# ("play", n) the player to act presses the first turn button, n times (0: until the end).
SCENARIOS: dict[str, list[tuple[Any, ...]]] = {
    "pot": [
        ("cmd", "daily", "bob", {}),
        ("cmd", "grant", "ann", {"target": "cid", "amount": 50}),
        ("cmd", "start", "ann", {"stakes": "pot:10", "format": "rounds:2"}),
        ("press", "bob", "Join"),
        ("cmd", "join", "cid", {}),
        ("press", "ann", "Add bot"),
        ("cmd", "leave", "cid", {}),
        ("press", "cid", "Join"),
        ("press", "ann", "Start"),
        ("play", 0),
    ],
    "canoga": [
        ("cmd", "start", "ann", {"stakes": "canoga:2", "format": "rounds:2"}),
        ("press", "bob", "Join"),
        ("cmd", "join", "cid", {}),
        ("press", "cid", "Leave"),
        ("cmd", "join", "cid", {}),
        ("press", "ann", "Start"),
        ("play", 0),
    ],
    "stopped": [
        ("cmd", "start", "ann", {"stakes": "pot:5", "format": "rounds:3"}),
        ("cmd", "join", "bob", {}),
        ("press", "cid", "Join"),
        ("cmd", "begin", "ann", {}),
        ("play", 7),
        ("cmd", "stop", "ann", {}),
    ],
    "cancelled": [
        ("cmd", "start", "ann", {"stakes": "pot:5"}),
        ("press", "bob", "Join"),
        ("press", "ann", "Cancel"),
        ("cmd", "start", "bob", {"stakes": "pot:5"}),
        ("cmd", "join", "ann", {}),
        ("cmd", "cancel", "bob", {}),
    ],
}

Send = Callable[[int, Step], Awaitable[dict[str, Any]]]


class StepProcess:
    """`python -m tests.scale.steps`: one bot process with its own manager and cache."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    async def send(self, step: Step) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(step.to_json().encode() + b"\n")
        await self.process.stdin.drain()
        line = await asyncio.wait_for(self.process.stdout.readline(), 30)
        assert line, "the step process died"
        return dict(json.loads(line))


@asynccontextmanager
async def step_processes(redis_url: str, count: int = 2) -> AsyncIterator[list[StepProcess]]:
    """`count` bot processes on `redis_url`, each ready for steps; killed on the way out."""
    started: list[asyncio.subprocess.Process] = []
    try:
        for _ in range(count):
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.scale.steps", redis_url, cwd=ROOT,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            )  # fmt: skip
            started.append(process)
            assert process.stdout is not None
            assert await asyncio.wait_for(process.stdout.readline(), 30) == b"ready\n"
        yield [StepProcess(process) for process in started]
    finally:
        for process in started:
            if process.returncode is None:
                process.kill()
            await process.wait()


@pytest.fixture
async def two_processes(redis_url: str) -> AsyncIterator[list[StepProcess]]:
    async with step_processes(redis_url) as processes:
        yield processes


async def play(scenario: str, scope: Scope, store: RedisStore, send: Send) -> None:
    """Resolve each intent of the scenario into a step and send it (step n is the n-th)."""
    seat, numbers = Seat(scope, CHANNEL), itertools.count()

    def step(op: str, user: str, **extra: Any) -> Step:
        admin = op in ("grant", "stop")
        return Step(op, user, (scope.platform, scope.server), CHANNEL,
                    f"{scope.server}-{len(sent)}", admin=admin, **extra)  # fmt: skip

    sent: list[Step] = []
    for intent in SCENARIOS[scenario]:
        if intent[0] == "play":
            for _ in range(intent[1] or MAX_TURN_CLICKS):
                record = await fresh_record(store, seat)
                if record is None or record.state.to_act is None:
                    break
                sent.append(step("click", record.state.to_act.id, button=turn_buttons(record)[0]))
                await send(next(numbers), sent[-1])
            continue
        if intent[0] == "press":
            record = await fresh_record(store, seat)
            assert record is not None
            rows = present.game_view(record).rows
            button = next(b.action_id for row in rows for b in row if b.label == intent[2])
            sent.append(step("click", intent[1], button=button))
        else:
            options = intent[3]
            extra = options if intent[1] == "grant" else {"options": options} if options else {}
            sent.append(step(intent[1], intent[2], **extra))
        reply = await send(next(numbers), sent[-1])
        assert reply["private"] is None or intent[1] in ("daily", "grant"), (intent, reply)


async def outcome(store: RedisStore, scope: Scope) -> dict[str, Any]:
    """Every player's chips, the pot and the mint, the journal's movements, and the stats."""
    accounts = [*PLAYERS, f"pot:{CHANNEL}", MINT]
    journal = [
        (source, target, amount, meta["why"])
        async for source, target, amount, meta in store.journal(scope)
    ]
    stats = {p: await store.hash(scope, f"stats:{p}") for p in PLAYERS}
    return {"balances": await store.balances(scope, accounts), "journal": journal, "stats": stats}


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
async def test_steps_alternating_between_two_processes_pay_as_one_process_would(
    scenario: str,
    two_processes: list[StepProcess],
    store: RedisStore,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Process A then B then A…, and B then A then B…: balances, journal and stats per player
    equal a single process's, every seated player paid every ante, and the ledger verifies."""
    reference = Scope("matrix", f"{scenario}-one")
    monkeypatch.setattr("core.service.pipeline.opening.new_fair_dice", fixed_fair_dice)
    alone = GameManager(store)

    async def in_one_process(_: int, step: Step) -> dict[str, Any]:
        return answer(await run_step(alone, step))

    await play(scenario, reference, store, in_one_process)
    expected = await outcome(store, reference)
    assert (await store.verify_ledger(reference)).ok

    for first in (0, 1):
        scope = Scope("matrix", f"{scenario}-{'AB' if first == 0 else 'BA'}")

        async def alternating(n: int, step: Step, first: int = first) -> dict[str, Any]:
            return await two_processes[(n + first) % 2].send(step)

        await play(scenario, scope, store, alternating)
        assert await outcome(store, scope) == expected, scope
        assert (await store.verify_ledger(scope)).ok

    if scenario == "pot":  # two rounds, three seated humans: six antes of 10 into the pot
        antes = [(source, amount) for source, target, amount, _ in expected["journal"]
                 if target == f"pot:{CHANNEL}"]  # fmt: skip
        assert sorted(antes) == [(p, 10) for p in PLAYERS for _ in range(2)]
