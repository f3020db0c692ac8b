"""A commit whose reply was lost: find out what became of it before telling anyone.

A timeout or a dropped connection says nothing about the commit: Redis may have run it (it was
sent) or may run it yet (it is still on its way). `GameStore.resolve` answers atomically: the
request's result if it applied, else the attempt is declared void, so it can never apply later.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable, Sequence

from core.game.errors import ShutboxError
from core.service.model.commit import Commit, CommitResult
from core.service.model.ports import GameStore, OutcomeUnknown, StoreUnavailable


class NotApplied(ShutboxError):
    """The commit's reply was lost, and Redis has since confirmed it did not apply."""

    key = "outcome.not_applied"


async def resolve_lost(
    store: GameStore,
    commit: Commit,
    pauses: Sequence[float],
    sleep: Callable[[float], Awaitable[None]],
    budget: float = math.inf,
    clock: Callable[[], float] = time.monotonic,
) -> CommitResult:
    """DUPLICATE (applied, with its result) or VOID (not applied, and now never will be).

    Asks again after each pause while Redis does not answer; raises `OutcomeUnknown` if it
    still does not after the last one, or when the next pause would end past `budget` seconds
    (a player is waiting for the answer: Slack and Discord give a click 3 s).
    """
    started = clock()
    for pause in pauses:
        if clock() - started + pause > budget:
            break
        await sleep(pause)
        try:
            return await store.resolve(commit)
        except StoreUnavailable:
            continue
    raise OutcomeUnknown(commit)
