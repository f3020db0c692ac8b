"""The Redis store: games, chips, journal, deadlines and stats of every server.

Every key of a server starts with `Scope.tag` (`stb:{platform:server}`), so one server lives in one
Redis Cluster hash slot. A `Commit` is one EVALSHA of `core/lua/commit.lua`, which checks, then
writes, all or nothing, and records the request id in the same step (redis-py retries a command
whose reply was lost; the retry must find its first run and get the same result back).
The client may be a `Redis` or a `RedisCluster`: no round trip mixes two slots in one MULTI.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, TypeAlias

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.typing import EncodableT

from core import wire
from core.batching import CommitBatcher
from core.commit import MINT, Commit, CommitResult, Scope, StatOp, Status, StoredGame
from core.deadlines import DeadlineIndex
from core.season_store import SeasonStore, archived
from core.store_errors import (  # re-exported: adapters and the bot import them from here
    StoreFull,
    StoreReadOnly,
    StoreRefused,
    StoreUnavailable,
    reachable,
)

SERVERS_KEY = "stb:servers"  # global, so in another slot than any server: never in the script
JOURNAL_CHUNK = 1000
COMMIT_LUA = files("core").joinpath("lua/commit.lua").read_text(encoding="utf-8")
# Only a running game gets a message id: HSET alone would recreate a finished game's key.
ATTACH_LUA = (
    "if redis.call('EXISTS', KEYS[1]) == 1 then "
    "return redis.call('HSET', KEYS[1], 'm', ARGV[1]) + 1 end return 0"
)
# After a commit's reply was lost: its result if the request applied, else the attempt is made
# void, atomically, so a copy of it still on its way can never apply afterwards.
RESOLVE_LUA = (
    "local stored = redis.call('GET', KEYS[1]) "
    "if stored and string.sub(stored, 1, 6) ~= '~void:' then return stored end "
    "local voided = stored and (stored .. ',' .. ARGV[1]) or ('~void:' .. ARGV[1]) "
    "redis.call('SET', KEYS[1], voided, 'EX', ARGV[2]) return false"
)
VOID_PREFIX = "~void:"
_SHARED_KEYS = ("bal", "journal", "deadlines", "daily", "lb:chips", "checkpoint")  # KEYS 3-8
JOURNAL_KEEP = 10_000  # journal entries kept in the stream; older ones live in the checkpoint
JOURNAL_FOLD = 500  # entries one commit folds into the checkpoint once the journal is full
REINDEX_CHUNK = 1000  # servers read per round trip when a process rebuilds the due index
LEDGER_ATTEMPTS = 5  # replays a ledger check tries while commits keep folding the journal

JournalEntry = tuple[str, str, int, dict[str, str]]
RedisClient: TypeAlias = Redis | RedisCluster
__all__ = ["GameStore", "LedgerReport", "OutcomeUnknown", "RedisClient", "StoreFull",
           "StoreReadOnly", "StoreRefused", "StoreUnavailable"]  # fmt: skip


class OutcomeUnknown(StoreUnavailable):
    """A commit was sent but its reply was lost: it may or may not have applied.

    `GameStore.resolve` finds out once Redis answers again.
    """

    key = "outcome.unknown"

    def __init__(self, commit: Commit) -> None:
        super().__init__()
        self.commit = commit


@dataclass(frozen=True, slots=True)
class LedgerReport:
    """The journal replayed from zero against the stored balances."""

    ok: bool
    entries: int
    accounts: int
    mismatches: dict[str, tuple[int, int]] = field(default_factory=dict)  # (journal, stored)
    total: int = 0  # sum of every stored balance, mint and pots included: 0 when sound
    folded: int = 0  # older entries summed up in the checkpoint the replay starts from


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The journal's folded past: every balance as of its last entry (see commit.lua)."""

    balances: dict[str, int] = field(default_factory=dict)
    entries: int = 0  # journal entries it sums up
    last_id: str = ""  # the last of them; the stream holds only later ones

    @classmethod
    def from_fields(cls, fields: Mapping[Any, Any]) -> Checkpoint:
        balances = {
            str(name)[2:]: int(value) for name, value in fields.items() if str(name)[:2] == "b:"
        }
        return cls(balances, int(fields.get("entries", 0)), str(fields.get("id", "")))


class GameStore:
    """Games and chips of every server; expects a client made with `decode_responses=True`."""

    def __init__(
        self,
        redis: RedisClient,
        *,
        request_ttl: int = 3600,
        journal: tuple[int, int] = (JOURNAL_KEEP, JOURNAL_FOLD),
    ) -> None:
        if not redis.get_connection_kwargs().get("decode_responses"):
            raise ValueError("GameStore needs a Redis client with decode_responses=True")
        self._redis = redis
        self._request_ttl = request_ttl
        self._journal_bounds = journal  # (entries kept, entries folded at a time)
        self._script = redis.register_script(COMMIT_LUA)
        self._attach = redis.register_script(ATTACH_LUA)
        self._resolve = redis.register_script(RESOLVE_LUA)
        self.deadlines = DeadlineIndex(redis)
        self.seasons = SeasonStore(redis, request_ttl)
        # One pipeline per round trip for concurrent commits (a cluster spreads them instead).
        self._batcher = (
            None if isinstance(redis, RedisCluster) else CommitBatcher(redis, SERVERS_KEY)
        )
        # Servers whose earliest deadline moved forward but the index was not told (Redis went
        # away right after the commit): told on the next sweep.
        self._unindexed: set[Scope] = set()

    async def load(self, scope: Scope, channel: str) -> StoredGame | None:
        """The channel's game, or None."""
        with reachable():
            found = await self._redis.hmget(_game_key(scope, channel), ["v", "r", "m"])
        return _stored_game(*found)

    async def load_with_balances(
        self, scope: Scope, channel: str, accounts: Sequence[str]
    ) -> tuple[StoredGame | None, dict[str, int]]:
        """The channel's game and the balances of `accounts`, in one round trip."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.hmget(_game_key(scope, channel), ["v", "r", "m"])
        if accounts:
            pipe.hmget(_key(scope, "bal"), list(accounts))
        with reachable():
            replies = await pipe.execute()
        game = _stored_game(*replies[0])
        return game, (_present(accounts, replies[1]) if accounts else {})

    async def attach(self, scope: Scope, channel: str, message: str) -> bool:
        """Keep the game message's id beside the running game; False if there is no game.

        A field of its own, not part of the record: game commits made from a record read
        before the message was posted must not write it away again.
        """
        with reachable():
            done: Any = await self._attach(keys=[_game_key(scope, channel)], args=[message])
        return bool(done)

    async def request_result(self, scope: Scope, request_id: str) -> str | None:
        """The stored result of a request already applied, if any (one GET)."""
        with reachable():
            found: Any = await self._redis.get(_key(scope, f"req:{request_id}"))
        if found is None or str(found).startswith(VOID_PREFIX):
            return None
        return _split_stored(str(found))[1]

    async def final_result(self, scope: Scope, channel: str) -> tuple[str, str] | None:
        """The request that ended the channel's last game and its result, while they are kept."""
        with reachable():
            key: Any = await self._redis.get(_key(scope, f"last:{channel}"))
            found: Any = None if key is None else await self._redis.get(str(key))
        if found is None or str(found).startswith(VOID_PREFIX):
            return None
        request = str(key).removeprefix(_key(scope, "req:"))
        return request, _split_stored(str(found))[1]

    async def resolve(self, commit: Commit) -> CommitResult:
        """What became of `commit` after its reply was lost: DUPLICATE (applied) or VOID (not).

        Needs the commit's request id; raises `StoreUnavailable` while Redis does not answer.
        """
        if commit.request_id is None:
            raise ValueError("only a commit with a request id can be resolved")
        key = _key(commit.scope, f"req:{commit.request_id}")
        with reachable():
            found: Any = await self._resolve(keys=[key], args=[commit.attempt, self._request_ttl])
        if not found:
            return CommitResult(Status.VOID)
        attempt, result = _split_stored(str(found))
        if commit.channel is not None:  # it applied, but nobody told the due index
            await self._index(commit.scope, None)
        return CommitResult(Status.DUPLICATE, result=result, applied_by=attempt)

    async def claim(self, scope: Scope, name: str, seconds: int) -> bool:
        """True for the first caller of `name` within `seconds` (SET NX): who posts, announces."""
        with reachable():
            won: Any = await self._redis.set(_key(scope, f"claim:{name}"), "", nx=True, ex=seconds)
        return bool(won)

    async def claim_note(self, scope: Scope, name: str) -> str | None:
        """What the claim's winner noted (e.g. the message it posted); "" if nothing yet."""
        with reachable():
            found: Any = await self._redis.get(_key(scope, f"claim:{name}"))
        return None if found is None else str(found)

    async def note_claim(self, scope: Scope, name: str, note: str, seconds: int) -> None:
        with reachable():
            await self._redis.set(_key(scope, f"claim:{name}"), note, ex=seconds)

    async def commit(self, commit: Commit) -> CommitResult:
        """Check, then write `commit` all or nothing, in one round trip (core/lua/commit.lua).

        A stats op that does not fit its key (a hash op on a sorted set, a number against a
        text field) is a bug: the script refuses it before any write and redis-py raises
        `ResponseError`.
        """
        stat_keys = list(dict.fromkeys(f"{commit.scope.tag}:{op.key}" for op in commit.stats))
        keys = _commit_keys(commit) + stat_keys
        args = _arguments(commit, stat_keys, self._request_ttl, self._journal_bounds)
        try:
            with reachable():
                try:
                    raw = await self._send(keys, args, _new_server(commit))
                except NoScriptError:  # the server restarted or SCRIPT FLUSH: load, once more
                    await self._redis.script_load(COMMIT_LUA)
                    raw = await self._send(keys, args, _new_server(commit))
        except (StoreReadOnly, StoreFull, StoreRefused):
            raise  # Redis refused the script before any write: nothing applied
        except StoreUnavailable as exc:
            raise OutcomeUnknown(commit) from exc  # sent, then lost: it may have run
        data: dict[str, Any] = wire.loads(raw)
        if "first" in data:
            await self._index(commit.scope, int(data["first"]))
        elif data["s"] == Status.DUPLICATE and commit.channel is not None:
            # The first run's reply was lost (redis-py retried): it may not have told the index.
            await self._index(commit.scope, None)
        return _decode_result(data)

    async def _index(self, scope: Scope, earliest: int | None) -> None:
        """Tell the due index that `scope`'s earliest deadline came forward (None: look it up).

        The commit itself is done: a Redis that fails now only defers this to the next sweep.
        """
        try:
            if earliest is None:
                earliest = await self.earliest_deadline(scope)
            if earliest is not None:
                await self.deadlines.brought_forward(_member(scope), earliest)
        except (RedisConnectionError, RedisTimeoutError, StoreUnavailable):
            self._unindexed.add(scope)
        else:
            self._unindexed.discard(scope)

    async def due_servers(self, now: int) -> list[Scope]:
        """Servers with a deadline at or before `now`: read from the index, not server by server."""
        for scope in sorted(self._unindexed, key=lambda s: s.tag):
            await self._index(scope, None)
        with reachable():
            members = await self.deadlines.due(now)
        return [_scope_of(member) for member in members]

    async def earliest_deadline(self, scope: Scope) -> int | None:
        """The server's first deadline (unix seconds), if it has one."""
        with reachable():
            first: Any = await self._redis.zrange(_key(scope, "deadlines"), 0, 0, withscores=True)
        return int(first[0][1]) if first else None

    async def swept(self, scope: Scope, epoch: str) -> None:
        """Move the server's index entry on to its next deadline (or drop it) after a sweep.

        `epoch` was read (`DeadlineIndex.epoch`) before the server's deadlines were: a commit
        since then changed it, and its own index write stands.
        """
        earliest = await self.earliest_deadline(scope)
        with reachable():
            await self.deadlines.settle(_member(scope), epoch, earliest)

    async def due_epoch(self, scope: Scope) -> str:
        with reachable():
            return await self.deadlines.epoch(_member(scope))

    async def _send(self, keys: list[str], args: list[str], server: str | None) -> str:
        """EVALSHA, with the server's SADD riding in the same round trip when there is one."""
        if self._batcher is not None:
            return str(await self._batcher.evalsha(self._script.sha, keys, args, server))
        if server is None:
            return str(await self._redis.evalsha(self._script.sha, len(keys), *keys, *args))
        if isinstance(self._redis, RedisCluster):
            # A cluster pipeline refuses EVALSHA; the set lives on another node anyway.
            reply, _ = await asyncio.gather(
                self._redis.evalsha(self._script.sha, len(keys), *keys, *args),
                self._redis.sadd(SERVERS_KEY, server),
            )
            return str(reply)
        pipe = self._redis.pipeline(transaction=False)
        pipe.evalsha(self._script.sha, len(keys), *keys, *args)
        pipe.sadd(SERVERS_KEY, server)
        reply, _ = await pipe.execute()
        return str(reply)

    async def balances(self, scope: Scope, accounts: Sequence[str]) -> dict[str, int]:
        """Balances of the accounts that exist."""
        if not accounts:
            return {}
        with reachable():
            found = await self._redis.hmget(_key(scope, "bal"), list(accounts))
        return _present(accounts, found)

    async def due(self, scope: Scope, now: int) -> list[str]:
        """Channels whose deadline has come."""
        with reachable():
            channels = await self._redis.zrangebyscore(_key(scope, "deadlines"), "-inf", now)
        return [str(channel) for channel in channels]

    async def oldest_deadlines(self, platforms: Collection[str] = ()) -> list[int]:
        """The earliest pending deadline of each server (of `platforms`, else of all) that has
        one, in unix seconds."""
        scopes = [s for s in await self.servers() if not platforms or s.platform in platforms]
        if not scopes:
            return []
        pipe = self._redis.pipeline(transaction=False)  # one round trip per node
        for scope in scopes:
            pipe.zrange(_key(scope, "deadlines"), 0, 0, withscores=True)
        with reachable():
            rows: list[Any] = await pipe.execute()
        return [int(row[0][1]) for row in rows if row]

    async def reindex_deadlines(self, platform: str | None = None) -> int:
        """Enter every known server (of `platform`) in the due index again; how many had a
        deadline. O(servers), so only when a process starts (see `DeadlineIndex.reindex`)."""
        found = 0
        with reachable():
            async for chunk in self._known_servers(platform):
                found += await self.deadlines.reindex(chunk)
        return found

    async def _known_servers(self, platform: str | None) -> AsyncIterator[list[str]]:
        batch: list[str] = []
        async for member in self._redis.sscan_iter(SERVERS_KEY, count=REINDEX_CHUNK):
            if platform is None or str(member).startswith(f"{platform}:"):
                batch.append(str(member))
            if len(batch) >= REINDEX_CHUNK:
                yield batch
                batch = []
        if batch:
            yield batch

    async def servers(self) -> list[Scope]:
        """Every scope that ever had a game or chips."""
        with reachable():
            members = await self._redis.smembers(SERVERS_KEY)
        return [_scope_of(str(member)) for member in sorted(members)]

    async def top(
        self, scope: Scope, board: str, limit: int = 10, *, ascending: bool = False,
        season: int | None = None,
    ) -> list[tuple[str, float]]:  # fmt: skip
        """The first `limit` entries of a leaderboard (of archived `season`, if given), highest
        first unless `ascending`."""
        if limit <= 0:
            return []
        name = f"lb:{board}"
        key = _key(scope, archived(season, name) if season is not None else name)
        with reachable():
            rows: list[Any] = await self._redis.zrange(
                key, 0, limit - 1, desc=not ascending, withscores=True
            )
        return [(str(member), float(score)) for member, score in rows]

    async def hash(self, scope: Scope, key: str) -> dict[str, str]:
        """A whole hash of the server, e.g. `stats:<user>` or `cfg`."""
        with reachable():
            found = await self._redis.hgetall(_key(scope, key))
        return {str(name): str(value) for name, value in found.items()}

    async def set_fields(self, scope: Scope, key: str, values: Mapping[str, str]) -> None:
        """Set fields of a server hash (the server's configuration)."""
        if values:
            with reachable():
                await self._redis.hset(_key(scope, key), mapping=_encodable(values))

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
                _key(scope, "journal"), start, until, count=JOURNAL_CHUNK
            )
        return list(found or [])

    async def verify_ledger(self, scope: Scope) -> LedgerReport:
        """Replay the journal from the checkpoint (zero balances without one) to the balances.

        A checkpoint that does not itself sum to zero fails the check like a wrong balance.
        """
        for _ in range(LEDGER_ATTEMPTS):
            stored, last_id, checkpoint = await self._ledger_snapshot(scope)
            start = checkpoint.balances
            replayed, entries = await self._replay(scope, last_id, start) if last_id else (start, 0)
            # A commit may have folded entries the replay had still to read: then read again.
            if await self._checkpoint_id(scope) == checkpoint.last_id:
                break
        mismatches = _mismatches(replayed, stored)
        total = sum(stored.values())
        ok = not mismatches and total == 0 and sum(start.values()) == 0
        return LedgerReport(ok, entries, len(stored), mismatches, total, checkpoint.entries)

    async def _checkpoint_id(self, scope: Scope) -> str:
        with reachable():
            found: Any = await self._redis.hget(_key(scope, "checkpoint"), "id")
        return "" if found is None else str(found)

    async def _replay(
        self, scope: Scope, until: str, start: Mapping[str, int]
    ) -> tuple[dict[str, int], int]:
        """Balances from `start` after each journal entry up to `until`, and how many there were."""
        replayed = dict(start)
        entries = 0
        async for source, target, amount, _ in self.journal(scope, until=until):
            replayed[source] = replayed.get(source, 0) - amount
            replayed[target] = replayed.get(target, 0) + amount
            entries += 1
        return replayed, entries

    async def _ledger_snapshot(self, scope: Scope) -> tuple[dict[str, int], str | None, Checkpoint]:
        """Balances, the last journal id and the checkpoint read together (MULTI), so commits
        cannot split them.

        All keys share the server's slot, so the MULTI also runs on a cluster (redis-py >= 6.2).
        """
        pipe = self._redis.pipeline(transaction=True)
        pipe.hgetall(_key(scope, "bal"))
        pipe.xrevrange(_key(scope, "journal"), "+", "-", count=1)
        pipe.hgetall(_key(scope, "checkpoint"))
        with reachable():
            balances, last, checkpoint = await pipe.execute()
        stored = {str(account): int(amount) for account, amount in balances.items()}
        return stored, (str(last[0][0]) if last else None), Checkpoint.from_fields(checkpoint)


def _mismatches(
    replayed: Mapping[str, int], stored: Mapping[str, int]
) -> dict[str, tuple[int, int]]:
    """Accounts whose stored balance differs from the replayed one: (journal, stored)."""
    accounts = sorted(replayed.keys() | stored.keys())
    pairs = {account: (replayed.get(account, 0), stored.get(account, 0)) for account in accounts}
    return {account: pair for account, pair in pairs.items() if pair[0] != pair[1]}


def _member(scope: Scope) -> str:
    """How sets of servers name one: `platform:server`."""
    return f"{scope.platform}:{scope.server}"


def _scope_of(member: str) -> Scope:
    return Scope(*member.split(":", 1))


def _key(scope: Scope, name: str) -> str:
    return f"{scope.tag}:{name}"


def _game_key(scope: Scope, channel: str) -> str:
    return _key(scope, f"game:{channel}")


def _encodable(values: Mapping[str, str]) -> dict[EncodableT, EncodableT]:
    return dict(values.items())


def _stored_game(version: Any, record: Any, message: Any = None) -> StoredGame | None:
    if version is None or record is None:
        return None
    return StoredGame(int(version), str(record), str(message or ""))


def _present(accounts: Sequence[str], found: list[Any]) -> dict[str, int]:
    """The accounts that have a balance, with it."""
    return {
        account: int(value)
        for account, value in zip(accounts, found, strict=True)
        if value is not None
    }


def _journal_entry(entry_id: Any, fields: dict[Any, Any]) -> JournalEntry:
    meta = {str(name): str(value) for name, value in fields.items()}
    source, target, amount = meta.pop("src"), meta.pop("dst"), int(meta.pop("amt"))
    meta["id"] = str(entry_id)
    return source, target, amount, meta


def _commit_keys(commit: Commit) -> list[str]:
    """The script's fixed KEYS; an unused one still names a key of the slot, for Cluster."""
    per_commit = [f"req:{commit.request_id or ''}", f"game:{commit.channel or ''}"]
    last = f"last:{commit.channel or ''}"
    return [_key(commit.scope, name) for name in (*per_commit, *_SHARED_KEYS, last)]


def _new_server(commit: Commit) -> str | None:
    """`platform:server` when this commit may be the server's first game or first chips."""
    creates_game = commit.channel is not None and commit.expected_version is None
    if commit.ensure_accounts or (creates_game and commit.record is not None):
        return _member(commit.scope)
    return None


def _stat_op(op: StatOp, key_index: int) -> list[Any]:
    value: int | str = str(op.value) if op.kind in ("hset", "heq") else int(op.value)
    return [str(op.kind), key_index, op.field, value]


def _arguments(
    commit: Commit, stat_keys: list[str], request_ttl: int, journal: tuple[int, int]
) -> list[str]:
    """The script's ARGV: the commit as JSON, then the record and the result as they are.

    The two big texts travel beside the JSON, not inside it: escaping them into it and
    decoding them out again in Lua cost more than the rest of the commit.
    """
    payload = _payload(commit, stat_keys, request_ttl, journal)
    return [payload, commit.record or "", commit.result]


def _payload(
    commit: Commit, stat_keys: list[str], request_ttl: int, journal: tuple[int, int]
) -> str:
    """The commit's small fields as JSON; a field left out means "not given"."""
    first_stat_key = 4 + len(_SHARED_KEYS)  # after req, game, shared and last; 1-based
    index = {key: first_stat_key + position for position, key in enumerate(stat_keys)}
    body: dict[str, Any] = {
        "mint": MINT,
        "req": commit.request_id is not None,
        "ttl": request_ttl,
        "game": commit.channel is not None,
        "ch": commit.channel or "",
        "v": str(commit.version),
        "start": commit.start_balance,
        "ensure": list(commit.ensure_accounts),
        "expect": [[account, amount] for account, amount in commit.expected_balances],
        "tr": [[t.source, t.target, t.amount] for t in commit.transfers],
        "why": commit.journal.reason,
        "jch": commit.journal.channel,
        "stats": [_stat_op(op, index[f"{commit.scope.tag}:{op.key}"]) for op in commit.stats],
        "report": list(commit.report_accounts),
        "att": commit.attempt,
        "jk": journal[0],
        "jf": journal[1],
    }
    optional = {
        "ev": None if commit.expected_version is None else str(commit.expected_version),
        "hr": commit.record is not None or None,
        "dl": commit.deadline,
        "daily": commit.daily and [commit.daily.user, commit.daily.now, commit.daily.cooldown],
    }
    body.update({name: value for name, value in optional.items() if value is not None})
    return wire.dumps(body)


def _split_stored(stored: str) -> tuple[str, str]:
    """A request key's value: the attempt that applied it, and its result."""
    attempt, _, result = stored.partition("\n")
    return attempt, result


def _decode_result(data: dict[str, Any]) -> CommitResult:
    version = data.get("v")
    attempt, result = _split_stored(data.get("res", "")) if "res" in data else ("", "")
    return CommitResult(
        status=Status(data["s"]),
        version=None if version is None else int(version),
        record=data.get("r"),
        message=data.get("m") or "",
        result=result,
        applied_by=attempt,
        balances={account: int(amount) for account, amount in data.get("b", {}).items()},
        retry_after=int(data.get("ra", 0)),
    )
