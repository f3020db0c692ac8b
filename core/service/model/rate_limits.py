"""What the rate limits and the store share: a limit, the refusal past it, and the running
click's count that its commit script takes (core/service/pipeline/rate_limit.py counts; the
store's commit carries the count, so a click costs one round trip)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from core.game.errors import ShutboxError
from core.service.model.commit import Scope

_FORM = re.compile(r"\s*(\d+)\s*/\s*(\d+(?:\.\d+)?)\s*s?\s*")
OFF = ("0", "off", "none")


class TooFast(ShutboxError):
    """The member went past a rate limit; `seconds` until they may go on."""

    key = "error.rate_limit"

    def __init__(self, key: str, seconds: int) -> None:
        super().__init__(key, seconds=seconds)


@dataclass(frozen=True, slots=True)
class Limit:
    """At most `count` in any `seconds`-long window that starts with a member's first hit."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Limit | None:
        """`40/10` (40 per 10 seconds; `40/10s` too); `0` or `off`: no limit. ValueError else."""
        if text.strip().lower() in OFF:
            return None
        found = _FORM.fullmatch(text)
        if found is None:
            raise ValueError(f"must be COUNT/SECONDS, e.g. 40/10 (or off), not {text!r}")
        count, seconds = int(found[1]), float(found[2])
        if count < 1 or not 0 < seconds <= 3600:
            raise ValueError("needs a count of at least 1 and 0 to 3600 seconds")
        return cls(count, seconds)


@dataclass(slots=True)
class PendingHit:
    """A click's count against `commands`, not yet counted: the click's first commit takes it
    (the script counts it before any check, and refuses the commit past the limit)."""

    scope: Scope
    user: str
    limit: Limit
    closed: bool = False  # taken by a commit, or counted on its own after the handler


_PENDING: ContextVar[PendingHit | None] = ContextVar("shutbox_pending_hit", default=None)


@contextmanager
def pending(hit: PendingHit) -> Iterator[PendingHit]:
    """`hit` is the running click's count for as long as the block runs."""
    token = _PENDING.set(hit)
    try:
        yield hit
    finally:
        _PENDING.reset(token)


def take_pending_hit(scope: Scope) -> PendingHit | None:
    """The running click's count, for the commit about to be sent in `scope` (once only)."""
    hit = _PENDING.get()
    if hit is None or hit.closed or hit.scope != scope:
        return None
    hit.closed = True
    return hit
