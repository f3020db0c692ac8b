"""Every feature that keeps something when a game changes, in one table (cosmicpython's
`EVENT_HANDLERS`): the game commit asks each one and writes what they return in the same
atomic commit as the change (core/service/pipeline/game_commit.py).

A feature that keeps something at the end of a match adds its keeper here (a function of a
`Change`, core/service/features/keeping.py); the commit itself does not change.
"""

from __future__ import annotations

from core.service.features import history, ratings, rematch, retention, reviews, stats
from core.service.features.keeping import Change, Keeper
from core.service.features.tournaments import tables
from core.service.model.commit import StoreOp

KEEPERS: tuple[Keeper, ...] = (
    stats.names_kept, stats.kept, reviews.kept, rematch.kept, ratings.kept, history.kept,
    tables.kept,  # a tournament table's result, with the match's end
)  # fmt: skip


def kept(change: Change) -> tuple[StoreOp, ...]:
    """What every feature keeps of this change, each key with its expiry where it has one."""
    return retention.with_expiry(tuple(op for keeper in KEEPERS for op in keeper(change)))
