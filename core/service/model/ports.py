"""What the service needs from storage, as Protocols: the Redis store implements them.

The service layer (the manager and its helpers) depends only on these; `core/store/` holds the
Redis implementation, and nothing in `core/service/` imports it (ruff's banned-api rule keeps
it that way). A test or a future store can stand in by implementing the same methods.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from core.game.errors import ShutboxError
from core.service.model.commit import Commit, CommitResult, Scope, StoredGame


class StoreUnavailable(ShutboxError):
    """The store could not be reached or did not answer in time."""

    key = "error.redis"


class OutcomeUnknown(StoreUnavailable):
    """A commit was sent but its reply was lost: it may or may not have applied.

    `GameStore.resolve` finds out once the store answers again.
    """

    key = "outcome.unknown"

    def __init__(self, commit: Commit) -> None:
        super().__init__()
        self.commit = commit


class Ended(StrEnum):
    OK = "ok"
    DUPLICATE = "duplicate"  # this request ended a season already
    STALE = "stale"  # the season changed since the caller read it
    JUST_BEGUN = "just-begun"  # the current season was begun by an end moments ago


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    status: Ended
    season: int  # the season ended (OK, DUPLICATE), or the current one (STALE)


class SeasonStore(Protocol):
    """A server's current season and the end of one (archiving its boards and ratings)."""

    async def current(self, scope: Scope, now: int) -> tuple[int, int]: ...

    async def end(
        self, scope: Scope, season: int, now: int, request_id: str, *, reset_chips: bool,
        audit: str = "",
    ) -> SeasonEnd: ...  # fmt: skip

    async def number(self, scope: Scope) -> int:
        """The current season's number, read only (1 before anyone asked)."""
        ...

    async def season_stats(self, scope: Scope, fields: Sequence[str]) -> dict[str, str]:
        """The named fields of the current season's stats hash that are set."""
        ...


class AdminPort(Protocol):
    """The audit log (written by the commits themselves) and the members' rate limits."""

    async def audit_entries(self, scope: Scope, limit: int | None = None) -> list[str]: ...

    async def hit(
        self, scope: Scope, bucket: str, user: str, limit: int, window: float
    ) -> float: ...


class WebPages(Protocol):
    """The slug of each server's page (`/shutbox web`) and the server of each slug."""

    async def slug(self, scope: Scope) -> str | None: ...

    async def open(self, scope: Scope, slug: str) -> None: ...

    async def close(self, scope: Scope) -> bool: ...

    async def server(self, slug: str) -> Scope | None: ...


class StartIndex(Protocol):
    """When each tournament with a start time is due (core/store/tournament_starts.py)."""

    async def plan(self, scope: Scope, tournament_id: str, at: int) -> None: ...

    async def due(self, now: int) -> list[tuple[Scope, str]]: ...

    async def done(self, scope: Scope, tournament_id: str) -> None: ...


class GameStore(Protocol):
    """Games, chips, boards and claims of every server; every write is one atomic commit."""

    @property
    def seasons(self) -> SeasonStore: ...

    @property
    def admin(self) -> AdminPort: ...

    @property
    def web(self) -> WebPages: ...

    @property
    def starts(self) -> StartIndex: ...

    async def load_with_balances(
        self, scope: Scope, channel: str, accounts: Sequence[str]
    ) -> tuple[StoredGame | None, dict[str, int]]: ...

    async def commit(self, commit: Commit) -> CommitResult: ...

    async def resolve(self, commit: Commit) -> CommitResult: ...

    async def request_result(self, scope: Scope, request_id: str) -> str | None: ...

    async def final_result(self, scope: Scope, channel: str) -> tuple[str, str] | None: ...

    async def attach(self, scope: Scope, channel: str, message: str) -> bool: ...

    async def claim(self, scope: Scope, name: str, seconds: int) -> bool: ...

    async def release(self, scope: Scope, name: str) -> None: ...

    async def claim_note(self, scope: Scope, name: str) -> str | None: ...

    async def note_claim(self, scope: Scope, name: str, note: str, seconds: int) -> None: ...

    async def balances(self, scope: Scope, accounts: Sequence[str]) -> dict[str, int]: ...

    async def top(
        self, scope: Scope, board: str, limit: int = 10, *, ascending: bool = False,
        season: int | None = None,
    ) -> list[tuple[str, float]]: ...  # fmt: skip

    async def hash(self, scope: Scope, key: str) -> dict[str, str]: ...

    async def hash_fields(
        self, scope: Scope, key: str, fields: Sequence[str]
    ) -> dict[str, str]: ...  # fmt: skip

    async def newest(self, scope: Scope, key: str, count: int) -> list[str]: ...

    async def set_fields(self, scope: Scope, key: str, values: Mapping[str, str]) -> None: ...

    async def due_servers(self, now: int) -> list[Scope]: ...

    async def due_epoch(self, scope: Scope) -> str: ...

    async def due(self, scope: Scope, now: int) -> list[str]: ...

    async def swept(self, scope: Scope, epoch: str) -> None: ...

    async def reindex_deadlines(self, platform: str | None = None) -> int:
        """Put every running game's deadline back in the due index (after a crash)."""
        ...

    async def park_deadline(self, scope: Scope, channel: str, now: int, until: int) -> bool:
        """Move the due deadline of a game that can't be read on to `until`."""
        ...

    async def clear_unreadable_game(self, scope: Scope, channel: str, raw: str) -> bool:
        """Remove the channel's game if it still holds `raw`, the unreadable record read."""
        ...
