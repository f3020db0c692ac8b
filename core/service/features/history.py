"""The server's recent matches, kept for its page (`/shutbox web`): who played, the totals, the
winners, each human player's graded decisions (as the Review keeps them) and, for a provably
fair match, its published record.

Written at the end of a match in the same atomic commit as the match's end (like the stats, the
reviews and the rematch), as one entry pushed onto the server's `matches` list, which keeps
the newest KEEP entries. A daily challenge is not a match here: its dice stay secret all day.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from core.game import flow
from core.game.dice import FairDice
from core.game.events import Event, MatchEnded
from core.game.state import Ending
from core.service.features import reviews
from core.service.features.keeping import Change
from core.service.model import keys
from core.service.model.commit import OpKind, StoreOp
from core.service.model.record import GameRecord
from core.service.model.turns import Log, dump_log, load_log

KEY = keys.MATCHES
KEEP = 200  # entries per server: the page lists them; older ones fall off the list's end
KEPT_ENDINGS = (Ending.FINISHED, Ending.STOPPED)
VOID = "void"  # the ending of a finished match no human made a decision in


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    bot: bool
    total: int
    winner: bool
    review: str  # reviews.Kept.to_str(), "" for a bot
    rating: int = 0  # the shown rating the match left the player with; 0: not a rated match


@dataclass(frozen=True, slots=True)
class Match:
    id: str
    ended: int
    ending: str
    rules: str  # Rules.to_str()
    players: tuple[Player, ...]
    fair: str  # the published MatchRecord JSON, "" when the dice were not provably fair
    long: bool = False  # the long game (its second seat opens tiles)
    log: Log = ()  # every turn, in order (turns.logged)

    def to_json(self) -> str:
        players = [[p.id, p.name, int(p.bot), p.total, int(p.winner), p.review, p.rating]
                   for p in self.players]  # fmt: skip
        return json.dumps(
            {"id": self.id, "ended": self.ended, "ending": self.ending, "rules": self.rules,
             "players": players, "fair": self.fair, "long": int(self.long),
             "log": dump_log(self.log)},
            separators=(",", ":"), ensure_ascii=False,
        )  # fmt: skip

    @classmethod
    def from_json(cls, text: str) -> Match | None:
        """An entry, or None for one this version cannot read (skipped, never an error page)."""
        try:
            data = json.loads(text)
            players = tuple(
                Player(str(i), str(n), bool(b), int(total), bool(w), str(r), int(rating))
                for i, n, b, total, w, r, rating in data["players"]
            )
            return cls(str(data["id"]), int(data["ended"]), str(data["ending"]),
                       str(data["rules"]), players, str(data["fair"]), bool(data["long"]),
                       load_log(data["log"]))  # fmt: skip
        except (ValueError, KeyError, TypeError, IndexError):
            return None

    def has(self, user: str) -> bool:
        return any(player.id == user for player in self.players)


def ended(events: Sequence[Event]) -> MatchEnded | None:
    return next((e for e in events if isinstance(e, MatchEnded)), None)


def kept(change: Change) -> Iterator[StoreOp]:
    """The entry of a match that ended in this change, with the ratings it left."""
    shown = {user: skill.shown for user, skill in change.skills_after.items()}
    return stat_ops(change.record, change.events, change.fair, change.now, shown)


def stat_ops(
    record: GameRecord, events: Sequence[Event], fair: FairDice | None, now: int,
    ratings: Mapping[str, int] | None = None,
) -> Iterator[StoreOp]:  # fmt: skip
    """The entry of a match that ended in these events (finished or stopped); `ratings` are
    the shown ratings it left its rated players with."""
    end = ended(events)
    if end is None or end.ending not in KEPT_ENDINGS or record.challenge:
        return
    state = record.state
    void = state.void and end.ending is Ending.FINISHED  # nobody decided: no winner, no count
    players = tuple(
        Player(seat.id, seat.name, seat.bot, seat.total, index in end.winners and not void,
               "" if seat.bot else reviews.kept_of(record, seat.id).to_str(),
               (ratings or {}).get(seat.id, 0))
        for index, seat in enumerate(state.seats)
    )  # fmt: skip
    published = fair.record(record.rolls).to_json() if fair is not None else ""
    ending = VOID if void else end.ending.value
    match = Match(record.game_id, now, ending, state.config.rules.to_str(), players,
                  published, flow.is_long(state), record.log)  # fmt: skip
    yield StoreOp(OpKind.LCAP, KEY, str(KEEP), match.to_json())
