"""The Redis store: games, chips, journal, deadlines and stats of every server.

Every key of a server starts with `Scope.tag` (`stb:{platform:server}`), so one server lives in one
Redis Cluster hash slot. A `Commit` is one EVALSHA of `core/store/lua/commit.lua`, which checks,
then writes, all or nothing, and records the request id in the same step (redis-py retries a command
whose reply was lost; the retry must find its first run and get the same result back).
The client may be a `Redis` or a `RedisCluster`: no round trip mixes two slots in one MULTI.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from importlib.resources import files
from typing import Any, TypeAlias

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError

from core.service.model import keys, unreadable, wire
from core.service.model.commit import Commit, CommitResult, Scope, Status, StoredGame
from core.service.model.unreadable import Seen as UnreadableSeen
from core.service.model.unreadable import unheard
from core.store.admin_store import AdminStore
from core.store.batching import CommitBatcher
from core.store.claims import Claims
from core.store.commit_wire import (
    JOURNAL_FOLD,
    JOURNAL_KEEP,
    RESOLVE_LUA,
    VOID_PREFIX,
    arguments,
    commit_keys,
    decode_result,
    new_server,
    pending_hit,
    refuse_if_too_fast,
    scope_of,
    server_key,
    split_stored,
)
from core.store.deadlines import DeadlineIndex
from core.store.decoding import (
    Containment,
    present,
    refuse_if_unreadable,
    stored_game,
    typed,
    wrong_balances,
    wrong_game,
)
from core.store.due_reads import SERVERS_KEY, DueServers
from core.store.errors import (  # re-exported: adapters and the bot import them from here
    OutcomeUnknown,
    StoreFull,
    StoreReadOnly,
    StoreRefused,
    StoreUnavailable,
    never_sent,
    reachable,
)
from core.store.ledger import JournalEntry, Ledger, LedgerReport
from core.store.season_store import SeasonStore, archived
from core.store.server_hashes import ServerHashes
from core.store.tournament_starts import TournamentStarts
from core.store.web_store import WebStore

COMMIT_LUA = files("core.store").joinpath("lua/commit.lua").read_text(encoding="utf-8")
# Only a running game gets a message id: HSET alone would recreate a finished game's key.
ATTACH_LUA = (
    "if redis.call('EXISTS', KEYS[1]) == 1 then "
    "return redis.call('HSET', KEYS[1], 'm', ARGV[1]) + 1 end return 0"
)
RedisClient: TypeAlias = Redis | RedisCluster
__all__ = ["SERVERS_KEY", "LedgerReport", "OutcomeUnknown", "RedisClient", "RedisStore",
           "StoreFull", "StoreReadOnly", "StoreRefused", "StoreUnavailable"]  # fmt: skip


class RedisStore(DueServers, Claims, Containment, ServerHashes):
    """Games and chips of every server; expects a client made with `decode_responses=True`."""

    def __init__(
        self,
        redis: RedisClient,
        *,
        request_ttl: int = 3600,
        journal: tuple[int, int] = (JOURNAL_KEEP, JOURNAL_FOLD),
        seasons_kept: int = 0,  # ended seasons' archives kept; 0: every one
        on_unreadable: UnreadableSeen | None = None,
    ) -> None:
        if not redis.get_connection_kwargs().get("decode_responses"):
            raise ValueError("RedisStore needs a Redis client with decode_responses=True")
        self._redis = redis
        self._request_ttl = request_ttl
        self._journal_bounds = journal  # (entries kept, entries folded at a time)
        # Told of a stats counter a commit left as it was (the bot counts and logs each once).
        self.on_unreadable: UnreadableSeen = on_unreadable or unheard
        self._script = redis.register_script(COMMIT_LUA)
        self._attach = redis.register_script(ATTACH_LUA)
        self._resolve = redis.register_script(RESOLVE_LUA)
        self.deadlines = DeadlineIndex(redis)
        self.ledger = Ledger(redis)
        self.seasons = SeasonStore(redis, request_ttl, seasons_kept)
        self.admin = AdminStore(redis)
        self.web = WebStore(redis)
        self.starts = TournamentStarts(redis)
        # One pipeline per round trip for concurrent commits (a cluster spreads them instead).
        self._batcher = (
            None if isinstance(redis, RedisCluster) else CommitBatcher(redis, SERVERS_KEY)
        )
        # Servers whose earliest deadline moved forward but the index was not told (Redis went
        # away right after the commit): told on the next sweep.
        self._unindexed: set[Scope] = set()

    async def load(self, scope: Scope, channel: str) -> StoredGame | None:
        """The channel's game, or None."""
        with reachable(), typed(wrong_game(channel)):
            found = await self._redis.hmget(_game_key(scope, channel), ["v", "r", "m"])
        return stored_game(channel, *found)

    async def load_with_balances(
        self, scope: Scope, channel: str, accounts: Sequence[str]
    ) -> tuple[StoredGame | None, dict[str, int]]:
        """The channel's game and the balances of `accounts`, in one round trip."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.hmget(_game_key(scope, channel), ["v", "r", "m"])
        if accounts:
            pipe.hmget(server_key(scope, keys.BALANCES), list(accounts))
        with reachable():
            replies = await pipe.execute(raise_on_error=False)
            for reply, wrong in zip(replies, (wrong_game(channel), wrong_balances), strict=False):
                if isinstance(reply, Exception):
                    with typed(wrong):
                        raise reply
        game = stored_game(channel, *replies[0])
        return game, (present(accounts, replies[1]) if accounts else {})

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
            found: Any = await self._redis.get(server_key(scope, keys.request(request_id)))
        if found is None or str(found).startswith(VOID_PREFIX):
            return None
        return split_stored(str(found))[1]

    async def final_result(self, scope: Scope, channel: str) -> tuple[str, str] | None:
        """The request that ended the channel's last game and its result, while they are kept."""
        with reachable():
            key: Any = await self._redis.get(server_key(scope, keys.last_result(channel)))
            found: Any = None if key is None else await self._redis.get(str(key))
        if found is None or str(found).startswith(VOID_PREFIX):
            return None
        request = str(key).removeprefix(server_key(scope, keys.request("")))
        return request, split_stored(str(found))[1]

    async def resolve(self, commit: Commit) -> CommitResult:
        """What became of `commit` after its reply was lost: DUPLICATE (applied) or VOID (not).

        Needs the commit's request id; raises `StoreUnavailable` while Redis does not answer.
        """
        if commit.request_id is None:
            raise ValueError("only a commit with a request id can be resolved")
        key = server_key(commit.scope, keys.request(commit.request_id))
        with reachable():
            found: Any = await self._resolve(keys=[key], args=[commit.attempt, self._request_ttl])
        if not found:
            return CommitResult(Status.VOID)
        attempt, result = split_stored(str(found))
        if commit.channel is not None:  # it applied, but nobody told the due index
            await self._index(commit.scope, None)
        return CommitResult(Status.DUPLICATE, result=result, applied_by=attempt)

    async def commit(self, commit: Commit) -> CommitResult:
        """Check, then write `commit` all or nothing, in one round trip (core/store/lua/commit.lua).

        A stats op that does not fit its key (a hash op on a sorted set, a number against a
        text field) is a bug: the script refuses it before any write and redis-py raises
        `ResponseError`.
        """
        stat_keys = list(dict.fromkeys(f"{commit.scope.tag}:{op.key}" for op in commit.ops))
        keys = commit_keys(commit) + stat_keys
        rate = pending_hit(commit.scope, keys)
        args = arguments(commit, stat_keys, self._request_ttl, self._journal_bounds, rate)
        try:
            with reachable():
                try:
                    raw = await self._send(keys, args, new_server(commit))
                except NoScriptError:  # the server restarted or SCRIPT FLUSH: load, once more
                    await self._redis.script_load(COMMIT_LUA)
                    raw = await self._send(keys, args, new_server(commit))
        except (StoreReadOnly, StoreFull, StoreRefused):
            raise  # Redis refused the script before any write: nothing applied
        except StoreUnavailable as exc:
            if never_sent(exc):
                raise  # Redis refused the connection: the script never left this process
            raise OutcomeUnknown(commit) from exc  # sent, then lost: it may have run
        data: dict[str, Any] = wire.loads(raw)
        refuse_if_too_fast(data)
        refuse_if_unreadable(data)
        if "first" in data:
            await self._index(commit.scope, int(data["first"]))
        elif data["s"] == Status.DUPLICATE and commit.channel is not None:
            # The first run's reply was lost (redis-py retried): it may not have told the index.
            await self._index(commit.scope, None)
        return self._counted(commit.scope, decode_result(data))

    def _counted(self, scope: Scope, result: CommitResult) -> CommitResult:
        """The stats counters the script left as they were, told as unreadable records and
        named inside the server (`stats:<member> <field>`)."""
        inside = tuple(record.removeprefix(f"{scope.tag}:") for record in result.damaged)
        for record in inside:
            self.on_unreadable(scope, unreadable.stats(record))
        return replace(result, damaged=inside) if inside else result

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
        with reachable(), typed(wrong_balances):
            found = await self._redis.hmget(server_key(scope, keys.BALANCES), list(accounts))
        return present(accounts, found)

    async def due(self, scope: Scope, now: int) -> list[str]:
        """Channels whose deadline has come."""
        with reachable():
            due = server_key(scope, keys.DEADLINES)
            channels = await self._redis.zrangebyscore(due, "-inf", now)
        return [str(channel) for channel in channels]

    async def servers(self) -> list[Scope]:
        """Every scope that ever had a game or chips."""
        with reachable():
            members = await self._redis.smembers(SERVERS_KEY)
        return [scope_of(str(member)) for member in sorted(members)]

    async def top(
        self, scope: Scope, board: str, limit: int = 10, *, ascending: bool = False,
        season: int | None = None,
    ) -> list[tuple[str, float]]:  # fmt: skip
        """The first `limit` entries of a sorted set (`lb:wins`; of archived `season`, if
        given), highest first unless `ascending`."""
        if limit <= 0:
            return []
        key = server_key(scope, archived(season, board) if season is not None else board)
        with reachable():
            rows: list[Any] = await self._redis.zrange(
                key, 0, limit - 1, desc=not ascending, withscores=True
            )
        return [(str(member), float(score)) for member, score in rows]

    def journal(self, scope: Scope, *, until: str = "+") -> AsyncIterator[JournalEntry]:
        """Every chip movement, oldest first (see `Ledger.journal`)."""
        return self.ledger.journal(scope, until=until)

    async def verify_ledger(self, scope: Scope) -> LedgerReport:
        """Replay the journal against the stored balances (see `Ledger.verify_ledger`)."""
        return await self.ledger.verify_ledger(scope)


def _game_key(scope: Scope, channel: str) -> str:
    return server_key(scope, keys.game(channel))
