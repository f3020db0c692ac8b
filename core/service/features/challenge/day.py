"""The daily challenge (SPEC 9): one solo turn a day, the same dice for every member of a server.

The dice are fixed before anyone plays and can be checked afterwards:

- Each server has a secret (32 random bytes, kept in its Redis slot, created once with its
  first challenge day). The day's seed is `HMAC-SHA256(secret, "challenge|<server>|<UTC date>")`.
- Its commitment `SHA-256(day seed)` is shown on every challenge message; the seed itself is
  revealed once the UTC day is over, in the published record of the day's dice.
- Roll k (0, 1, 2, ...) of the day is roll call k of the provably fair scheme `hmac-sha256-v1`
  (core/game/dice.py) with the day seed as its server seed and `challenge|<server>|<date>` as its
  client seed: `HMAC-SHA256(day seed, "<client seed>:<k>")`, bytes 252..255 skipped, so there
  is no modulo bias. Roll k never depends on what the player chose: a player who rolls one die
  gets the first die of the day's roll k. `shutbox verify` checks the published record as it
  checks a fair match.

A player's decisions are graded by the review (core/service/features/reviews.py); the share
shows one square per decision: 🟩 the best choice, 🟨 a small loss, 🟥 a big loss, where a
big loss is at least `BIG_LOSS` of the aim's unit (1 point of expected score, 0.25 of a tile, or 2
percentage points of a chance).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from core.game.ai.review import Aim, Decision
from core.game.dice import MatchRecord, commitment, fair_roll
from core.game.events import Event, MatchEnded
from core.game.numbers import is_digits, stored_int
from core.game.rules import Rules
from core.game.state import Ending
from core.service.model import keys
from core.service.model.commit import OpKind, Scope, StoreOp

GAME_PREFIX = "c"  # a challenge's game id: `c` + the day's digits (other ids are 8 hex digits)
SERVER_KEY = keys.CHALLENGE  # the server's secret and its first challenge day
STREAKS = keys.CHALLENGE_STREAKS
BIG_LOSS = {Aim.SUM: 1.0, Aim.COUNT: 0.25, Aim.SHUT: 0.02, Aim.WIN: 0.02}
SQUARES = {"g": "🟩", "y": "🟨", "r": "🟥"}
# The board orders by score, then accuracy, then time: one number in a sorted set says all three.
_SCORE_STEP, _ACCURACY_STEP, MAX_SECONDS = 10**10, 10**6, 999_999


def day_of(now: float) -> date:
    """The UTC day of a moment: a challenge lasts from 00:00 to 24:00 UTC."""
    return datetime.fromtimestamp(now, UTC).date()


def next_start(now: float) -> int:
    """Unix seconds of the next 00:00 UTC."""
    tomorrow = day_of(now) + timedelta(days=1)
    return int(datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=UTC).timestamp())


def channel_of(day: date, user: str) -> str:
    """Where a member's challenge game is kept: its own key, apart from every channel's game."""
    return keys.challenge_game(day, user)


def game_id_of(day: date) -> str:
    return f"{GAME_PREFIX}{day:%Y%m%d}"


def day_of_game(game_id: str) -> date | None:
    """The day of a challenge's game id; None for any other game."""
    digits = game_id[len(GAME_PREFIX) :]
    if not game_id.startswith(GAME_PREFIX) or len(digits) != 8 or not is_digits(digits):
        return None
    try:
        return date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
    except ValueError:
        return None


def client_seed(scope: Scope, day: date) -> str:
    return f"challenge|{scope.platform}:{scope.server}|{day.isoformat()}"


def day_seed(secret: str, scope: Scope, day: date) -> str:
    """The day's seed, as 64 hex digits: the HMAC of the day's label under the server's secret."""
    label = client_seed(scope, day).encode()
    return hmac.new(bytes.fromhex(secret), label, hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class Day:
    """One server's challenge of one UTC day."""

    scope: Scope
    day: date
    number: int  # the server's first challenge day is #1
    secret: str = field(repr=False)  # the server's: never shown
    seed: str = field(init=False, repr=False)  # secret until the day is over

    def __post_init__(self) -> None:
        object.__setattr__(self, "seed", day_seed(self.secret, self.scope, self.day))

    def previous(self) -> Day | None:
        """Yesterday's challenge, if the server had one: its day is over, its seed public."""
        if self.number <= 1:
            return None
        return Day(self.scope, self.day - timedelta(days=1), self.number - 1, self.secret)

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    @property
    def client_seed(self) -> str:
        return client_seed(self.scope, self.day)

    def record(self, rules: Rules) -> MatchRecord:
        """The day's published record: every roll a turn under `rules` can use (a roll either
        closes a tile or ends the turn), with the rules' full number of dice."""
        count = rules.dice
        rolls = tuple(
            fair_roll(self.seed, self.client_seed, k, count) for k in range(rules.tiles + 1)
        )
        return MatchRecord(self.commitment, self.seed, self.client_seed, rolls)


@dataclass(frozen=True, slots=True)
class Tag:
    """What a challenge game keeps beside the usual record: its day, number and the server's
    language (the channel line is public; the game itself is in the player's language)."""

    day: date
    number: int
    public_lang: str

    def to_str(self) -> str:
        return f"{self.day.isoformat()} {self.number} {self.public_lang}"

    @classmethod
    def from_str(cls, text: str) -> Tag | None:
        if not text:
            return None
        day, number, lang = text.split(" ")
        return cls(date.fromisoformat(day), _whole(number), lang)


@dataclass(frozen=True, slots=True)
class Result:
    """A finished challenge: score, accuracy (None: nothing to decide), seconds, the squares."""

    score: int
    accuracy: float | None
    seconds: int
    squares: str  # one letter per decision: g, y or r

    @property
    def rank_value(self) -> int:
        """Lower is better: score first, then accuracy (higher first), then time."""
        permille = 1000 if self.accuracy is None else round(10 * self.accuracy)
        seconds = min(self.seconds, MAX_SECONDS)
        return self.score * _SCORE_STEP + (1000 - permille) * _ACCURACY_STEP + seconds

    def to_str(self) -> str:
        accuracy = "-" if self.accuracy is None else f"{self.accuracy:.4f}"
        return f"r {self.score} {accuracy} {self.seconds} {self.squares or '-'}"

    @classmethod
    def from_str(cls, text: str) -> Result | None:
        """A stored result; None for an attempt that was started and not finished."""
        words = text.split(" ")
        if len(words) != 5 or words[0] != "r":
            return None
        _, score, accuracy, seconds, squares = words
        shown = None if accuracy == "-" else float(accuracy)
        return cls(_whole(score), shown, _whole(seconds), "" if squares == "-" else squares)


STARTED = "s"  # an attempt begun and not finished: it stays the day's attempt


def square_of(decision: Decision, aim: Aim) -> str:
    if decision.was_best:
        return "g"
    return "r" if decision.loss >= BIG_LOSS[aim] - 1e-9 else "y"


def squares(decisions: Sequence[Decision], aim: Aim) -> str:
    return "".join(square_of(decision, aim) for decision in decisions)


@dataclass(frozen=True, slots=True)
class Streak:
    """Consecutive UTC days with a finished challenge: the last one, the current run, the best."""

    last: date | None = None
    current: int = 0
    best: int = 0
    played: int = 0

    def after(self, day: date) -> Streak:
        """The streak once `day`'s challenge is finished."""
        if self.last == day:
            return self
        run = self.current + 1 if self.last == day - timedelta(days=1) else 1
        return Streak(day, run, max(self.best, run), self.played + 1)

    def on(self, today: date) -> int:
        """The current run as of `today`: broken once a whole day passed without a challenge."""
        if self.last is None or self.last < today - timedelta(days=1):
            return 0
        return self.current

    def to_str(self) -> str:
        last = self.last.isoformat() if self.last else "-"
        return f"{last} {self.current} {self.best} {self.played}"

    @classmethod
    def from_str(cls, text: str | None) -> Streak:
        if not text:
            return cls()
        last, current, best, played = text.split(" ")
        return cls(None if last == "-" else date.fromisoformat(last), _whole(current),
                   _whole(best), _whole(played))  # fmt: skip


def readable_streak(text: str) -> Streak | None:
    """A stored streak, or None when it can't be read (a hand edit, other digits): such a
    streak is left as it is, and counted as an unreadable record where it is met."""
    try:
        return Streak.from_str(text)
    except ValueError:
        return None


def started_ops(day: date, user: str) -> Iterator[StoreOp]:
    """The attempt is taken when the game is created: refused if the member has one already."""
    yield StoreOp(OpKind.HEQ, keys.challenge_day(day), user, "")
    yield StoreOp(OpKind.HSET, keys.challenge_day(day), user, STARTED)


def finished_ops(
    day: date, user: str, name: str, result: Result, streak: Streak | None
) -> Iterator[StoreOp]:
    """The result (the day's board reads them all), the member's streak (None: the stored one
    can't be read and stays as it is) and name; nothing else is touched."""
    yield StoreOp(OpKind.HSET, keys.challenge_day(day), user, result.to_str())
    if streak is not None:
        yield StoreOp(OpKind.HSET, STREAKS, user, streak.to_str())
    yield StoreOp(OpKind.HSET, keys.NAMES, user, name)


def finished(events: Sequence[Event]) -> bool:
    return any(isinstance(e, MatchEnded) and e.ending is Ending.FINISHED for e in events)


def _whole(text: str) -> int:
    """A stored whole number; `ValueError` for anything else, `٣` too (which `int()` reads)."""
    number = stored_int(text)
    if number is None:
        raise ValueError(f"not a whole number: {text[:20]!r}")
    return number
