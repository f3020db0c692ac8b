"""A stored record that does not parse: one game, one balance, or one of a server's settings.

The decoders raise `Unreadable` (a narrow error, never a bare `ValueError` from deep inside),
and the boundary of each game, member and channel catches it: the manager answers that one
request with a clear private line, the sweep leaves that one channel for later, and the bot
counts and logs each such record once (bot/telemetry.py). Everything else goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from core.game.errors import ShutboxError
from core.service.model import keys
from core.service.model.commit import Scope

PROBLEM_CHARS = 120  # of the decoder's own message: enough to see what is wrong, never a flood


class Kind(StrEnum):
    GAME = "game"  # a channel's game record (`game:<channel>`)
    BALANCE = "balance"  # a member's balance (`bal`, one field)
    CONFIG = "config"  # one of the server's settings (`cfg`, one field)
    STATS = "stats"  # one counter of a member's or the server's stats (a hash field)
    CHALLENGE = "challenge"  # a member's daily challenge result or streak
    TOURNAMENT = "tournament"  # a result a tournament's table left in its inbox


class Unreadable(ShutboxError):
    """`record` (the key inside the server, with its field) holds a value its decoder refuses.

    `raw` is the text that was read, so a repair (an admin's `stop`) only ever removes that
    same value, never a game that replaced it meanwhile. It is never shown or logged.
    """

    def __init__(self, kind: Kind, record: str, problem: object, *, raw: str = "") -> None:
        super().__init__(f"error.unreadable.{kind.value}")
        self.kind = kind
        self.record = record
        self.problem = _problem(problem)
        self.raw = raw


Seen = Callable[[Scope, "Unreadable"], None]  # told of each record found unreadable


def unheard(scope: Scope, error: Unreadable) -> None:
    """Where nobody listens (tests, tools): the reply already says what is wrong."""


def game(channel: str, problem: object, raw: str) -> Unreadable:
    return Unreadable(Kind.GAME, keys.game(channel), problem, raw=raw)


def balance(account: str, problem: object) -> Unreadable:
    return Unreadable(Kind.BALANCE, f"bal {account}", problem)


def setting(name: str, problem: object) -> Unreadable:
    return Unreadable(Kind.CONFIG, f"cfg {name}", problem)


def stats(record: str) -> Unreadable:
    """A stats counter the commit script left as it was (`<key> <field>` inside the server)."""
    return Unreadable(Kind.STATS, record, "not a whole number; left as it is, not counted on")


def challenge(record: str, problem: object) -> Unreadable:
    return Unreadable(Kind.CHALLENGE, record, problem)


def tournament(record: str, problem: object) -> Unreadable:
    return Unreadable(Kind.TOURNAMENT, record, problem)


def answer_key(error: Unreadable, user: str) -> str:
    """The catalog key of the line `user` reads: their own balance and a daily challenge's
    attempt (no `/shutbox stop` reaches one) are said in their own words."""
    if error.record == f"bal {user}":
        return "error.unreadable.balance.yours"
    if error.record.startswith("game:challenge:"):
        return "error.unreadable.challenge"
    return error.key


HINTS = {  # for the operator's log line: what clears each kind
    Kind.GAME: "an admin's /shutbox stop in that channel clears it",
    Kind.BALANCE: "`shutbox ledger verify` shows the balance the journal gives",
    Kind.CONFIG: "its default is used until an admin sets it with /shutbox config",
    Kind.STATS: "the counter is left as it is and `stats` shows — for it; set it by hand",
    Kind.CHALLENGE: "the attempt's result or streak is left as it is; set it by hand",
    Kind.TOURNAMENT: "that table's result is not counted; set it by hand or drop the field",
}


def _problem(problem: object) -> str:
    """One short line: the exception's class and the start of its message."""
    if isinstance(problem, BaseException):
        text = f"{type(problem).__name__}: {problem}"
    else:
        text = str(problem)
    text = " ".join(text.split())
    return text if len(text) <= PROBLEM_CHARS else text[: PROBLEM_CHARS - 1] + "…"
