"""How long the per-channel records of a finished match are kept (docs/operate/members.md).

A channel's review (`review:<channel>`) and rematch record (`rematch:<channel>`) are for the
days after a match: each expires `RECORD_TTL` after the last match written to it, set by the
same commit that writes it. Request records expire after the store's request TTL, and ended
seasons' archives beyond the seasons kept go when a season ends (core/store/season_store.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from core.service.model import keys
from core.service.model.commit import OpKind, StoreOp

RECORD_TTL = 30 * 24 * 60 * 60  # seconds a channel's review and rematch record are kept
EXPIRING = (keys.review(""), keys.rematch(""))
# the one hash of every channel's rematch record older versions kept
LEGACY = (keys.REMATCH_LEGACY,)


def with_expiry(ops: tuple[StoreOp, ...]) -> tuple[StoreOp, ...]:
    """`ops`, then the expiry of each per-channel record they write."""
    return (*ops, *expiring(ops))


def expiring(ops: Iterable[StoreOp]) -> Iterator[StoreOp]:
    """An EXPIRE op for each per-channel record `ops` write (after them in the same commit)."""
    written = dict.fromkeys(op.key for op in ops if op.key.startswith(EXPIRING))
    for key in written:
        yield StoreOp(OpKind.EXPIRE, key, "", RECORD_TTL)
    if any(key.startswith(keys.rematch("")) for key in written):
        yield from (StoreOp(OpKind.EXPIRE, key, "", RECORD_TTL) for key in LEGACY)
