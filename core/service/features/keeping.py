"""What a feature keeps when a game changes: a hook that returns store operations for the same
atomic commit as the change (like cosmicpython's `EVENT_HANDLERS`, without a second write).

Stats, reviews, ratings, rematch and the match history each register one `Keeper` in
`KEEPERS` (core/service/pipeline/keepers.py). Most keep something only when a match ends (a
`MatchEnded` among the events, `record.state.over`); each one looks at the `Change` and
returns nothing otherwise. A keeper is pure: everything it needs travels in the `Change`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from core.game.dice import FairDice
from core.game.events import Event
from core.game.settlement import Transfer
from core.service.features.skill import Skill
from core.service.model.commit import StoreOp
from core.service.model.record import GameRecord


@dataclass(frozen=True, slots=True)
class Change:
    """One step of a game, as the features that keep something of it see it."""

    before: GameRecord
    record: GameRecord  # after the step; kept even when the match is over
    events: tuple[Event, ...]
    transfers: tuple[Transfer, ...] = ()
    now: int = 0
    fair: FairDice | None = None
    # The ratings of the players a finishing match rates, before and after it (empty otherwise).
    skills_before: Mapping[str, Skill] = field(default_factory=dict)
    skills_after: Mapping[str, Skill] = field(default_factory=dict)


Keeper = Callable[[Change], Iterable[StoreOp]]
