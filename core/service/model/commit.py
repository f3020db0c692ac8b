"""What the manager asks the store to write in one atomic step, and what the store answers.

One `Commit` becomes one Redis round trip: a Lua script that checks, then writes, all or nothing.
Keys of one server share the hash tag `{<platform>:<server>}` so the script touches one slot.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from enum import StrEnum

from core.game.settlement import Transfer

MINT = "mint"  # the account new balances, daily claims and grants come from (it goes negative)


@dataclass(frozen=True, slots=True)
class Scope:
    """One chip economy and leaderboard: a Discord guild, a Slack workspace, or the playground."""

    platform: str
    server: str

    @property
    def tag(self) -> str:
        """The key prefix; the braces make Redis Cluster hash only `platform:server`."""
        return f"stb:{{{self.platform}:{self.server}}}"


class OpKind(StrEnum):
    HINCRBY = "hincrby"  # key field n
    HMIN = "hmin"  # key field n: set the field to n if it is missing or larger
    HSET = "hset"  # key field value
    ZINCRBY = "zincrby"  # key member n
    ZMIN = "zmin"  # key member n: set the member's score to n if missing or larger
    ZSET = "zset"  # key member n
    HEQ = "heq"  # key field value: no write; the commit is stale unless the field holds value
    AUDIT = "audit"  # key entry n: push an audit entry (a list, newest first), keep the last n
    EXPIRE = "expire"  # key "" n: the key expires n seconds from now (after this commit's writes)
    LCAP = "lcap"  # key n value: push value to the list's head, keep its first n (the newest)


@dataclass(frozen=True, slots=True)
class StoreOp:
    """One write (or check) of a commit beside the game and the chips: a leaderboard, a stat,
    a setting, an audit entry, a feature's record. `key` is relative to the scope (`stats:u1`);
    `kind` is one of `OpKind`, which the commit script (core/store/lua/commit.lua) applies."""

    kind: OpKind
    key: str
    field: str
    value: int | str


@dataclass(frozen=True, slots=True)
class Journal:
    """Why chips moved, written beside each transfer in the server's journal stream."""

    reason: str  # ante, pot, canoga, refund, start, daily, grant
    channel: str = ""


@dataclass(frozen=True, slots=True)
class DailyClaim:
    """Guard for `/shutbox daily`: refuse if the last claim is less than `cooldown` seconds old."""

    user: str
    now: int
    cooldown: int


@dataclass(frozen=True, slots=True)
class Commit:
    scope: Scope
    channel: str | None = None  # the game written, if any
    expected_version: int | None = None  # None: the game must not exist yet (a new lobby)
    record: str | None = None  # the new game record; None with `channel` deletes the game
    version: int = 0  # the version inside `record`
    request_id: str | None = None
    result: str = ""  # stored under the request id; a duplicate request gets it back
    start_balance: int = 100
    ensure_accounts: tuple[str, ...] = ()  # players given `start_balance` from MINT if new
    expected_balances: tuple[tuple[str, int], ...] = ()  # refuse if any differs
    # Seated staked players of a commit that settles stakes: each must be in expected_balances,
    # or the script refuses the commit (a settlement never counts a balance it did not check).
    stakers: tuple[str, ...] = ()
    # The chips each player must keep while seated in this commit's game
    # (core/game/payments.py `holds_of`): (account, amount), -1 for the whole balance,
    # 0 to release the account.
    holds: tuple[tuple[str, int], ...] = ()
    hold_key: str | None = None  # what `holds` are kept under: the channel, or `tour:<id>`
    keep: str | None = None  # refuse (HELD) if this account would go below what games hold
    transfers: tuple[Transfer, ...] = ()
    journal: Journal = field(default_factory=lambda: Journal("game"))
    deadline: int | None = None  # unix seconds of the game's next deadline; None: no deadline
    ops: tuple[StoreOp, ...] = ()
    daily: DailyClaim | None = None
    report_accounts: tuple[str, ...] = ()  # balances to return after the write
    # One try at writing this commit. redis-py resends a command whose reply was lost with the
    # same token; `GameStore.resolve` can declare a token void so a late copy never applies.
    attempt: str = field(default_factory=lambda: secrets.token_hex(8))


class Status(StrEnum):
    OK = "ok"
    DUPLICATE = "duplicate"  # the request id was already applied; `result` is its first result
    STALE = "stale"  # the game's version differs (or it exists/does not exist unexpectedly)
    BALANCES = "balances"  # an expected balance differs; `balances` holds the current ones
    DAILY_WAIT = "daily_wait"  # `retry_after` seconds until the next claim
    VOID = "void"  # this attempt was declared not applied after its reply was lost
    HELD = "held"  # `keep` would give away chips a running staked game holds; see `held`


@dataclass(frozen=True, slots=True)
class CommitResult:
    status: Status
    version: int | None = None  # the game's version now (None: no game)
    record: str | None = None  # the game's record now, on STALE (saves a second read)
    message: str = ""  # the game message's platform id, kept beside the record
    result: str = ""  # on DUPLICATE
    applied_by: str = ""  # on DUPLICATE: the attempt that applied it (ours after a lost reply)
    balances: dict[str, int] = field(default_factory=dict)
    retry_after: int = 0
    held: int = 0  # on HELD: the chips held (-1: the whole balance, a Canoga match)
    held_by_tournament: bool = False  # on HELD: a tournament's entry fee is among them
    # On OK: the stats counters (`<key> <field>` inside the server) left as they were, as they
    # held no whole number; everything else was applied.
    damaged: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StoredGame:
    version: int
    record: str
    message: str = ""  # the platform's id of the game message (set by `GameStore.attach`)
