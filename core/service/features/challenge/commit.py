"""What a daily challenge's game writes and says, in place of a match's stats and summaries.

The game is created with the attempt (so it cannot be started again that day); when the turn
ends its result goes on the day's board with the member's streak, the channel gets one line
without a die, and the player privately gets the share. Chips, ratings, the other boards and
the per-channel review are not touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.game.events import Event
from core.service.features import reviews
from core.service.features.challenge import day as challenge
from core.service.features.challenge.day import Result, Streak, Tag
from core.service.features.challenge.texts import channel_line, next_line, share
from core.service.model.commit import StoreOp
from core.service.model.record import GameRecord


@dataclass(frozen=True, slots=True)
class Outcome:
    stats: tuple[StoreOp, ...] = ()
    public: tuple[str, ...] = ()
    private: str | None = None


def result_of(record: GameRecord, now: int) -> Result:
    """The finished turn's score, the review's accuracy and squares, and the time it took."""
    seat = record.state.seats[0]
    kept = reviews.kept_of(record, seat.id)
    return Result(
        score=seat.total,
        accuracy=kept.review.accuracy,
        seconds=max(0, now - record.created),
        squares=challenge.squares(kept.decisions, kept.aim),
    )


def outcome(
    new: GameRecord, events: Sequence[Event], *, creating: bool, streak: str, now: int
) -> Outcome:
    tag = Tag.from_str(new.challenge)
    assert tag is not None
    seat = new.state.seats[0]
    ops = list(challenge.started_ops(tag.day, seat.id)) if creating else []
    if not challenge.finished(events):
        return Outcome(tuple(ops))
    result = result_of(new, now)
    known = challenge.readable_streak(streak)
    # A streak that can't be read is left as it is; the lines count this day as a new run.
    after = (known or Streak()).after(tag.day)
    ops += challenge.finished_ops(tag.day, seat.id, seat.name, result, after if known else None)
    line = channel_line(seat.name, tag.number, result, after.current, tag.public_lang)
    private = f"{share(tag.number, result, after.current, new.lang)}\n{next_line(now, new.lang)}"
    return Outcome(tuple(ops), (line,), private)
