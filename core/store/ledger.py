"""The chip journal and the ledger check: every balance proved from the journal's movements.

The journal is a stream per server; past a bound its oldest entries fold into a checkpoint
(core/store/lua/commit.lua), and the check replays from the checkpoint on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError

from core.service.model import keys
from core.service.model.commit import Scope
from core.store.commit_wire import server_key
from core.store.errors import reachable

JOURNAL_CHUNK = 1000
WRONG_TYPE = "WRONGTYPE"  # what `unreadable` notes of a key of another type
LEDGER_ATTEMPTS = 5  # replays a ledger check tries while commits keep folding the journal

JournalEntry = tuple[str, str, int, dict[str, str]]
RedisClient: TypeAlias = Redis | RedisCluster


@dataclass(frozen=True, slots=True)
class LedgerReport:
    """The journal replayed from zero against the stored balances."""

    ok: bool
    entries: int
    accounts: int
    mismatches: dict[str, tuple[int, int]] = field(default_factory=dict)  # (journal, stored)
    total: int = 0  # sum of every stored balance, mint and pots included: 0 when sound
    folded: int = 0  # older entries summed up in the checkpoint the replay starts from
    checkpoint_total: int = 0  # sum of the checkpoint's balances: 0 when sound
    # values the check could not read, left out of the sums: record -> what it holds
    unreadable: dict[str, str] = field(default_factory=dict)
    journal_gives: dict[str, int] = field(default_factory=dict)  # for an unreadable balance


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The journal's folded past: every balance as of its last entry (see commit.lua)."""

    balances: dict[str, int] = field(default_factory=dict)
    entries: int = 0  # journal entries it sums up
    last_id: str = ""  # the last of them; the stream holds only later ones

    @classmethod
    def from_fields(cls, fields: Mapping[Any, Any], unreadable: dict[str, str]) -> Checkpoint:
        """The checkpoint; a field that is not a whole number goes into `unreadable`."""
        named = {str(name)[2:]: value for name, value in fields.items() if str(name)[:2] == "b:"}
        balances = whole_numbers(named, "checkpoint b:", unreadable)
        counted = whole_numbers({"entries": fields.get("entries", 0)}, "checkpoint ", unreadable)
        return cls(balances, counted.get("entries", 0), str(fields.get("id", "")))


def whole_numbers(
    values: Mapping[Any, Any], record: str, unreadable: dict[str, str]
) -> dict[str, int]:
    """The values that are whole numbers; each other one goes into `unreadable` as
    `<record><name>` -> the value."""
    found = {}
    for name, value in values.items():
        try:
            found[str(name)] = int(value)
        except ValueError:
            unreadable[f"{record}{name}"] = str(value)
    return found


class Ledger:
    """Reads a server's journal, checkpoint and balances; writes nothing."""

    def __init__(self, redis: RedisClient) -> None:
        self._redis = redis

    async def journal(self, scope: Scope, *, until: str = "+") -> AsyncIterator[JournalEntry]:
        """Every chip movement, oldest first: (source, target, amount, meta with why, ch, id)."""
        start = "-"
        while True:
            chunk = await self._journal_chunk(scope, start, until)
            for entry_id, fields in chunk:
                yield _journal_entry(entry_id, fields)
            if len(chunk) < JOURNAL_CHUNK:
                return
            start = f"({chunk[-1][0]}"

    async def _journal_chunk(self, scope: Scope, start: str, until: str) -> list[Any]:
        with reachable():
            found = await self._redis.xrange(
                server_key(scope, keys.JOURNAL), start, until, count=JOURNAL_CHUNK
            )
        return list(found or [])

    async def verify_ledger(self, scope: Scope) -> LedgerReport:
        """Replay the journal from the checkpoint (zero balances without one) to the balances.

        A checkpoint that does not itself sum to zero fails the check like a wrong balance, and
        so does a value that is not a whole number (a balance, a journal entry's amount), named
        in the report and left out of the sums.
        """
        for _ in range(LEDGER_ATTEMPTS):
            unreadable: dict[str, str] = {}
            stored, last_id, checkpoint = await self._ledger_snapshot(scope, unreadable)
            start = checkpoint.balances
            replayed, entries = (
                await self._replay(scope, last_id, start, unreadable) if last_id else (start, 0)
            )
            # A commit may have folded entries the replay had still to read: then read again.
            if await self._checkpoint_id(scope) == checkpoint.last_id:
                break
        balance = f"{keys.BALANCES} "  # how an unreadable balance is noted
        unread = {r.removeprefix(balance) for r in unreadable if r.startswith(balance)}
        mismatches = {
            a: pair for a, pair in _mismatches(replayed, stored).items() if a not in unread
        }
        # nothing to compare with
        if unreadable.keys() & {keys.BALANCES, keys.JOURNAL, keys.CHECKPOINT}:
            mismatches = {}
        gives = {account: replayed.get(account, 0) for account in unread}
        total, opened = sum(stored.values()), sum(start.values())
        ok = not mismatches and not unreadable and total == 0 and opened == 0
        return LedgerReport(ok, entries, len(stored), mismatches, total, checkpoint.entries,
                            opened, unreadable, gives)  # fmt: skip

    async def _checkpoint_id(self, scope: Scope) -> str:
        with reachable():
            found: Any = await self._redis.hget(server_key(scope, keys.CHECKPOINT), "id")
        return "" if found is None else str(found)

    async def _replay(
        self, scope: Scope, until: str, start: Mapping[str, int], unreadable: dict[str, str]
    ) -> tuple[dict[str, int], int]:
        """Balances from `start` after each journal entry up to `until`, and how many there were;
        an entry that is not a chip movement goes into `unreadable`."""
        replayed = dict(start)
        entries, start_id = 0, "-"
        while chunk := await self._journal_chunk(scope, start_id, until):
            for entry_id, fields in chunk:
                entries += 1
                if (movement := _movement(entry_id, fields, unreadable)) is not None:
                    source, target, amount = movement
                    replayed[source] = replayed.get(source, 0) - amount
                    replayed[target] = replayed.get(target, 0) + amount
            if len(chunk) < JOURNAL_CHUNK:
                break
            start_id = f"({chunk[-1][0]}"
        return replayed, entries

    async def _ledger_snapshot(
        self, scope: Scope, unreadable: dict[str, str]
    ) -> tuple[dict[str, int], str | None, Checkpoint]:
        """Balances, the last journal id and the checkpoint read together (MULTI), so commits
        cannot split them.

        All keys share the server's slot, so the MULTI also runs on a cluster (redis-py >= 6.2).
        """
        pipe = self._redis.pipeline(transaction=True)
        pipe.hgetall(server_key(scope, keys.BALANCES))
        pipe.xrevrange(server_key(scope, keys.JOURNAL), "+", "-", count=1)
        pipe.hgetall(server_key(scope, keys.CHECKPOINT))
        with reachable():
            replies = await pipe.execute(raise_on_error=False)
        balances = _typed(keys.BALANCES, replies[0], {}, unreadable)
        last = _typed(keys.JOURNAL, replies[1], [], unreadable)
        checkpoint = _typed(keys.CHECKPOINT, replies[2], {}, unreadable)
        stored = whole_numbers(balances, f"{keys.BALANCES} ", unreadable)
        found = Checkpoint.from_fields(checkpoint, unreadable)
        return stored, (str(last[0][0]) if last else None), found


def _typed(name: str, reply: Any, empty: Any, unreadable: dict[str, str]) -> Any:
    """A pipeline's reply; `empty` (and a note in `unreadable`) for a key of another type than
    the ledger keeps there. Any other refusal is Redis in trouble, raised as such."""
    if not isinstance(reply, ResponseError):
        return reply
    if not str(reply).startswith("WRONGTYPE"):
        with reachable():
            raise reply
    unreadable[name] = WRONG_TYPE
    return empty


def _mismatches(
    replayed: Mapping[str, int], stored: Mapping[str, int]
) -> dict[str, tuple[int, int]]:
    """Accounts whose stored balance differs from the replayed one: (journal, stored)."""
    accounts = sorted(replayed.keys() | stored.keys())
    pairs = {account: (replayed.get(account, 0), stored.get(account, 0)) for account in accounts}
    return {account: pair for account, pair in pairs.items() if pair[0] != pair[1]}


def _movement(
    entry_id: Any, fields: dict[Any, Any], unreadable: dict[str, str]
) -> tuple[str, str, int] | None:
    """An entry's source, target and amount; None (and a note in `unreadable`) for an entry
    that is not a chip movement."""
    try:
        source, target, amount, _ = _journal_entry(entry_id, fields)
    except (KeyError, ValueError):
        unreadable[f"journal {entry_id}"] = " ".join(f"{k}={v}" for k, v in fields.items())
        return None
    return source, target, amount


def _journal_entry(entry_id: Any, fields: dict[Any, Any]) -> JournalEntry:
    meta = {str(name): str(value) for name, value in fields.items()}
    source, target, amount = meta.pop("src"), meta.pop("dst"), int(meta.pop("amt"))
    meta["id"] = str(entry_id)
    return source, target, amount, meta
