"""A lost reply is asked after while Redis is away, but never past the player's time budget."""

from __future__ import annotations

from typing import Any

import pytest

from core.service.model.commit import Commit, CommitResult, Scope
from core.service.model.outcomes import resolve_lost
from core.service.model.ports import OutcomeUnknown, StoreUnavailable

COMMIT = Commit(Scope("test", "guild"), channel="c", request_id="r1")


class Away:
    """A store whose Redis refuses every connection; counts the questions."""

    asked = 0

    async def resolve(self, commit: Commit) -> CommitResult:
        self.asked += 1
        raise StoreUnavailable()


class Clock:
    """Time that moves only when the resolver sleeps."""

    now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


async def test_asking_stops_before_the_budget_is_spent() -> None:
    store, clock = Away(), Clock()
    store_any: Any = store
    with pytest.raises(OutcomeUnknown):
        await resolve_lost(store_any, COMMIT, (0.1, 0.3, 0.6, 1.0, 2.0), clock.sleep, 1.5, clock)
    assert store.asked == 3  # after 0.1, 0.4 and 1.0 s; a fourth would end at 2.0 s
    assert clock.now == pytest.approx(1.0)


async def test_without_a_budget_every_pause_is_waited() -> None:
    store, clock = Away(), Clock()
    store_any: Any = store
    with pytest.raises(OutcomeUnknown):
        await resolve_lost(store_any, COMMIT, (0.1, 0.3, 0.6, 1.0, 2.0), clock.sleep, clock=clock)
    assert store.asked == 5
