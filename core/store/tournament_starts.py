"""When each tournament with a start time is due: one sorted set, so an idle sweep costs what is
due, not every tournament.

The index (`stb:{tstarts}`, member `platform:server:id`, score the start time) lives in its
own Cluster slot, so no commit writes it. The order makes that safe: an entry is written before
the commit that creates the tournament, and removed only after the tournament has started or
is gone, so an entry may lead nowhere (the sweep finds the tournament not open and drops it),
but a tournament due to start is never missing from it.
"""

from __future__ import annotations

from typing import Any

from core.service.model import keys
from core.service.model.commit import Scope
from core.store.commit_wire import scope_of, server_member
from core.store.errors import reachable

STARTS_KEY = keys.TOURNAMENT_STARTS
DUE_PAGE = 500  # due starts read per command


def _member(scope: Scope, tournament_id: str) -> str:
    return f"{server_member(scope)}:{tournament_id}"


class TournamentStarts:
    """The tournaments whose start time has come, for any process's sweep to start."""

    def __init__(self, redis: Any) -> None:
        self._redis = redis

    async def plan(self, scope: Scope, tournament_id: str, at: int) -> None:
        """Before the tournament's create commit: start it at `at` (unix seconds)."""
        with reachable():
            await self._redis.zadd(STARTS_KEY, {_member(scope, tournament_id): at})

    async def due(self, now: int) -> list[tuple[Scope, str]]:
        """Every planned start at or before `now`, earliest first."""
        found: list[str] = []
        with reachable():
            while True:
                page = await self._redis.zrangebyscore(STARTS_KEY, "-inf", now,
                                                       start=len(found), num=DUE_PAGE)  # fmt: skip
                found += [str(member) for member in page]
                if len(page) < DUE_PAGE:
                    break
        due = []
        for member in found:
            server, _, tournament_id = member.rpartition(":")
            due.append((scope_of(server), tournament_id))
        return due

    async def done(self, scope: Scope, tournament_id: str) -> None:
        """The tournament started, or will never start: its entry goes."""
        with reachable():
            await self._redis.zrem(STARTS_KEY, _member(scope, tournament_id))
