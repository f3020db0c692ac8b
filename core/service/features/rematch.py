"""Rematch: a finished match's button that opens a new lobby with the same settings.

The commit that finishes a match also keeps, per channel, what a rematch needs (the settings, the
human players, how many bots) in the channel's `rematch:<channel>` hash (older versions kept
them all in one `rematch` hash, still read), since the game itself is deleted when it ends; it
expires with the channel's review (core/service/features/retention.py). A press is only honoured for
that match, by someone who played in it, while no other game is open in the channel.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from core.game.events import Event, MatchEnded
from core.game.match import MatchConfig
from core.game.state import Ending
from core.service.features.keeping import Change
from core.service.model import keys
from core.service.model.buttons import ButtonId
from core.service.model.commit import OpKind, StoreOp
from core.service.model.context import Context
from core.service.model.record import GameRecord
from core.service.model.views import Button, ButtonStyle
from core.text.i18n import t

FIELD = "m"  # the record's field in `rematch:<channel>`


@dataclass(frozen=True, slots=True)
class LastMatch:
    """What a rematch of a channel's last finished match copies."""

    game_id: str
    config: MatchConfig
    humans: tuple[tuple[str, str], ...]  # (id, name) in seating order
    bots: int
    solo: bool
    fair: bool

    def to_str(self) -> str:
        data = {"g": self.game_id, "c": self.config.to_str(), "h": self.humans,
                "b": self.bots, "s": self.solo, "f": self.fair}  # fmt: skip
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_str(cls, text: str) -> LastMatch:
        data = json.loads(text)
        humans = tuple((str(user), str(name)) for user, name in data["h"])
        config = MatchConfig.from_str(data["c"])
        return cls(data["g"], config, humans, int(data["b"]), bool(data["s"]), bool(data["f"]))

    def played(self, user: str) -> bool:
        return any(user == human for human, _ in self.humans)


def last_match(record: GameRecord) -> LastMatch:
    seats = record.state.seats
    return LastMatch(
        record.game_id, record.state.config, tuple((s.id, s.name) for s in seats if not s.bot),
        sum(s.bot for s in seats), record.solo, bool(record.fair),
    )  # fmt: skip


def finished(record: GameRecord, events: Sequence[Event] = ()) -> bool:
    state = record.state
    ended = not events or any(isinstance(e, MatchEnded) for e in events)
    return ended and state.over and state.ending is Ending.FINISHED


def kept(change: Change) -> Iterator[StoreOp]:
    """At the end of a finished match: keep what its rematch needs."""
    record = change.record
    if finished(record, change.events):
        yield StoreOp(OpKind.HSET, keys.rematch(record.channel), FIELD, last_match(record).to_str())


def rematch_button(record: GameRecord) -> Button:
    button = ButtonId("rematch", record.game_id, record.version)
    return Button(str(button), t(record.lang, "ui.rematch"), ButtonStyle.PRIMARY)


def mention(ctx: Context, user: str, name: str) -> str:
    """How a public message calls a user so that they are notified, where the surface does."""
    return f"<@{user}>" if ctx.mentions else name
