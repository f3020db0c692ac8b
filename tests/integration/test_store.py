"""The Redis store keeps games, chips and stats as SPEC sections 4, 5 and 8 say, atomically."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.crc import key_slot
from redis.exceptions import ResponseError

import core.store.ledger
import core.store.redis_store
from core.game.settlement import Transfer
from core.service.model.commit import (
    MINT,
    Commit,
    DailyClaim,
    Journal,
    OpKind,
    Scope,
    Status,
    StoredGame,
    StoreOp,
)
from core.store.deadlines import DUE_KEY, EPOCH_KEY
from core.store.redis_store import OutcomeUnknown, RedisStore, StoreRefused, StoreUnavailable

SCOPE = Scope("discord", "g1")
ANN, BEN = "u1", "u2"
POT = "pot:c1"
DAY = 86_400


def new_game(channel: str = "c1", **changes: Any) -> Commit:
    """A lobby opened in `channel` by Ann and Ben, who get their start balance if new."""
    base = Commit(
        scope=SCOPE,
        channel=channel,
        record=f"lobby {channel}",
        version=1,
        ensure_accounts=(ANN, BEN),
        report_accounts=(ANN, BEN),
    )
    return replace(base, **changes)


def next_move(version: int, **changes: Any) -> Commit:
    """The game in c1 going from `version` to `version + 1`."""
    base = Commit(
        scope=SCOPE,
        channel="c1",
        expected_version=version,
        record=f"move {version + 1}",
        version=version + 1,
    )
    return replace(base, **changes)


ANTES = (Transfer(ANN, POT, 10), Transfer(BEN, POT, 10))


async def everything(redis: Redis) -> dict[str, Any]:
    """Every key of the database with its value, to prove a refused commit wrote nothing."""
    found: dict[str, Any] = {}
    for key in sorted(await redis.keys("*")):
        kind = await redis.type(key)
        readers: dict[str, Callable[[str], Awaitable[Any]]] = {
            "string": redis.get,
            "hash": redis.hgetall,
            "zset": lambda k: redis.zrange(k, 0, -1, withscores=True),
            "stream": redis.xrange,
            "set": redis.smembers,
        }
        found[key] = await readers[kind](key)
    return found


async def test_new_game_is_created_and_loaded(store: RedisStore) -> None:
    """A new lobby is written with its version and found again by load."""
    result = await store.commit(new_game())
    assert result.status is Status.OK
    assert result.version == 1
    assert result.balances == {ANN: 100, BEN: 100}
    assert await store.load(SCOPE, "c1") == StoredGame(1, "lobby c1")
    assert await store.servers() == [SCOPE]


async def test_missing_game_loads_as_none(store: RedisStore) -> None:
    """A channel without a game loads as None, with the balances that exist."""
    await store.commit(new_game("c2"))
    game, balances = await store.load_with_balances(SCOPE, "c1", [ANN, "nobody"])
    assert game is None
    assert balances == {ANN: 100}


async def test_record_keeps_any_text(store: RedisStore) -> None:
    """A record with quotes, emoji and non-Latin text round-trips through the script."""
    record = 'Åse "🎲" 骰子 \\ end'
    await store.commit(new_game(record=record))
    assert await store.load(SCOPE, "c1") == StoredGame(1, record)


async def test_stale_version_is_refused_with_current_record(store: RedisStore) -> None:
    """A commit made on an old version is refused and gets the current version and record."""
    await store.commit(new_game())
    await store.commit(next_move(1))
    result = await store.commit(next_move(1, record="late click"))
    assert (result.status, result.version, result.record) == (Status.STALE, 2, "move 2")
    assert await store.load(SCOPE, "c1") == StoredGame(2, "move 2")


async def test_second_lobby_in_a_channel_is_stale(store: RedisStore) -> None:
    """Opening a game where one exists is refused: the game must not exist yet."""
    await store.commit(new_game())
    result = await store.commit(new_game(record="another"))
    assert (result.status, result.version, result.record) == (Status.STALE, 1, "lobby c1")


async def test_move_on_a_missing_game_is_stale(store: RedisStore) -> None:
    """A click on a game that has ended is refused with no version."""
    result = await store.commit(next_move(3))
    assert (result.status, result.version, result.record) == (Status.STALE, None, None)


async def test_same_request_id_twice_is_applied_once(store: RedisStore) -> None:
    """A repeated request id changes nothing and gets the first request's result back."""
    await store.commit(new_game())
    move = next_move(1, transfers=ANTES, request_id="i-1", result="first")
    assert (await store.commit(move)).status is Status.OK
    again = await store.commit(replace(move, result="second"))
    assert (again.status, again.result, again.version) == (Status.DUPLICATE, "first", 2)
    assert await store.balances(SCOPE, [ANN, BEN, POT]) == {ANN: 90, BEN: 90, POT: 20}


async def test_concurrent_duplicates_from_two_processes_apply_once(
    redis_url: str, store: RedisStore
) -> None:
    """Two bot processes sending the same request at once: one applies, one gets its result."""
    await store.commit(new_game())
    clients = [aioredis.from_url(redis_url, decode_responses=True) for _ in range(2)]
    move = next_move(1, transfers=ANTES, request_id="i-2", result="done")
    try:
        results = await asyncio.gather(*(RedisStore(c).commit(move) for c in clients))
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))
    assert sorted(r.status for r in results) == [Status.DUPLICATE, Status.OK]
    assert {r.result for r in results if r.status is Status.DUPLICATE} == {"done"}
    assert await store.balances(SCOPE, [POT]) == {POT: 20}
    assert (await store.verify_ledger(SCOPE)).entries == 4


async def test_retried_commit_after_lost_reply_is_duplicate(store: RedisStore) -> None:
    """The script run twice with one request id (a retry after a lost reply) applies once."""
    await store.commit(new_game())
    move = next_move(1, transfers=ANTES, request_id="i-3", result="paid")
    first, retried = await store.commit(move), await store.commit(move)
    assert (first.status, retried.status, retried.result) == (Status.OK, Status.DUPLICATE, "paid")
    assert await store.balances(SCOPE, [ANN, POT]) == {ANN: 90, POT: 20}


class ReplyDropper:
    """A loopback proxy to Redis that swallows the reply to the next EVALSHA, then hangs up."""

    def __init__(self, redis: Redis) -> None:
        self.upstream: dict[str, Any] = dict(redis.connection_pool.connection_kwargs)
        self.armed = True
        self.server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        port = self.server.sockets[0].getsockname()[1]
        return f"redis://127.0.0.1:{port}/{self.upstream.get('db', 0)}"

    async def _open_upstream(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if "path" in self.upstream:
            return await asyncio.open_unix_connection(self.upstream["path"])
        return await asyncio.open_connection(self.upstream["host"], self.upstream["port"])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await self._open_upstream()
        dropping = asyncio.Event()

        async def to_redis() -> None:
            while data := await reader.read(65536):
                if self.armed and b"EVALSHA" in data.upper():
                    self.armed = False
                    dropping.set()
                up_writer.write(data)
                await up_writer.drain()

        async def to_client() -> None:
            while data := await up_reader.read(65536):
                if dropping.is_set():
                    writer.close()  # the script ran; its reply is lost on the way back
                    return
                writer.write(data)
                await writer.drain()

        tasks = [asyncio.create_task(to_redis()), asyncio.create_task(to_client())]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        for stream in (writer, up_writer):
            stream.close()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[ReplyDropper]:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        async with self.server:
            yield self


@pytest.mark.parametrize("new_player", [False, True], ids=["evalsha", "pipeline"])
async def test_lost_reply_is_retried_by_redis_py_and_applied_once(
    redis: Redis, store: RedisStore, new_player: bool
) -> None:
    """redis-py retries a command whose reply was lost; the retry gets DUPLICATE, not a re-run."""
    await store.commit(new_game())
    ensure = ("u3",) if new_player else ()
    move = next_move(1, transfers=ANTES, request_id="i-4", result="paid", ensure_accounts=ensure)
    async with ReplyDropper(redis).running() as proxy:
        client = aioredis.from_url(proxy.url, decode_responses=True, retry=Retry(NoBackoff(), 2))
        try:
            result = await RedisStore(client).commit(move)
        finally:
            await client.aclose()
    assert not proxy.armed, "the proxy never saw the EVALSHA"
    assert (result.status, result.result, result.version) == (Status.DUPLICATE, "paid", 2)
    assert await store.balances(SCOPE, [ANN, BEN, POT]) == {ANN: 90, BEN: 90, POT: 20}
    assert (await store.verify_ledger(SCOPE)).ok


async def test_transfers_are_journaled_and_the_ledger_verifies(store: RedisStore) -> None:
    """Every chip movement is in the journal; replaying it gives the stored balances."""
    await store.commit(new_game(journal=Journal("start", "c1")))
    await store.commit(next_move(1, transfers=ANTES, journal=Journal("ante", "c1")))
    await store.commit(next_move(2, transfers=(Transfer(POT, BEN, 20),), journal=Journal("pot")))
    entries = [(s, t, a, m["why"]) async for s, t, a, m in store.journal(SCOPE)]
    assert entries == [
        (MINT, ANN, 100, "start"),
        (MINT, BEN, 100, "start"),
        (ANN, POT, 10, "ante"),
        (BEN, POT, 10, "ante"),
        (POT, BEN, 20, "pot"),
    ]
    report = await store.verify_ledger(SCOPE)
    assert (report.ok, report.entries, report.accounts, report.total) == (True, 5, 4, 0)


async def test_ledger_verifies_while_chips_move(store: RedisStore) -> None:
    """A ledger check running among concurrent commits still sees balances and journal agree."""
    await store.commit(new_game())
    passes = [Transfer(ANN, BEN, 1), Transfer(BEN, ANN, 1)]
    moves = [Commit(SCOPE, transfers=(passes[i % 2],)) for i in range(40)]
    checks = [store.verify_ledger(SCOPE) for _ in range(10)]
    outcomes = await asyncio.gather(*(store.commit(m) for m in moves), *checks)
    reports = [o for o in outcomes if isinstance(o, core.store.redis_store.LedgerReport)]
    assert all(report.ok for report in reports)
    assert (await store.verify_ledger(SCOPE)).entries == 42


async def test_journal_is_read_in_chunks(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A journal longer than one chunk is read whole, in order."""
    monkeypatch.setattr(core.store.ledger, "JOURNAL_CHUNK", 3)
    back_and_forth = tuple(Transfer(*pair, 1) for pair in [(ANN, BEN), (BEN, ANN)] * 5)
    await store.commit(new_game(transfers=back_and_forth))
    amounts = [amount async for _, _, amount, _ in store.journal(SCOPE)]
    assert amounts == [100, 100] + [1] * 10
    assert (await store.verify_ledger(SCOPE)).entries == 12


async def test_tampered_balance_is_reported_by_the_ledger(redis: Redis, store: RedisStore) -> None:
    """A balance changed outside the script shows up as a mismatch and a non-zero total."""
    await store.commit(new_game())
    await redis.hincrby(f"{SCOPE.tag}:bal", ANN, 5)
    report = await store.verify_ledger(SCOPE)
    assert not report.ok
    assert report.mismatches == {ANN: (100, 105)}
    assert report.total == 5


async def test_expected_balance_mismatch_refuses_everything(
    redis: Redis, store: RedisStore
) -> None:
    """A commit computed on outdated balances writes nothing at all and gets the current ones."""
    await store.commit(new_game())
    before = await everything(redis)
    refused = next_move(
        1,
        ensure_accounts=("u3",),
        expected_balances=((ANN, 100), (BEN, 99)),
        transfers=ANTES,
        deadline=500,
        ops=(StoreOp(OpKind.HINCRBY, f"stats:{ANN}", "games", 1),),
        daily=DailyClaim(ANN, now=1000, cooldown=DAY),
        request_id="i-5",
    )
    result = await store.commit(refused)
    assert result.status is Status.BALANCES
    assert result.balances == {ANN: 100, BEN: 100, POT: 0}
    assert await everything(redis) == before


async def test_overdraft_refuses_everything(redis: Redis, store: RedisStore) -> None:
    """A transfer that would take a player below zero refuses the whole commit."""
    await store.commit(new_game())
    before = await everything(redis)
    result = await store.commit(next_move(1, transfers=(*ANTES, Transfer(ANN, POT, 91))))
    assert result.status is Status.BALANCES
    assert await everything(redis) == before


@pytest.mark.parametrize(
    "misfit",
    [
        StoreOp(OpKind.HINCRBY, "lb:wins", ANN, 1),  # a hash op on a sorted set
        StoreOp(OpKind.ZINCRBY, f"stats:{ANN}", "games", 1),  # a sorted-set op on a hash
        StoreOp(OpKind.HMIN, f"stats:{ANN}", "rules", 3),  # a number against a text field
    ],
    ids=["hash-op-on-zset", "zset-op-on-hash", "min-of-text"],
)
async def test_stats_op_that_does_not_fit_refuses_everything(
    redis: Redis, store: RedisStore, misfit: StoreOp
) -> None:
    """A stats op that would fail halfway is found before the first write: nothing changes."""
    await store.commit(new_game(ops=(StoreOp(OpKind.ZINCRBY, "lb:wins", ANN, 1),)))
    await store.commit(next_move(1, ops=(StoreOp(OpKind.HSET, f"stats:{ANN}", "rules", "x"),)))
    before = await everything(redis)
    good = StoreOp(OpKind.HINCRBY, f"stats:{ANN}", "games", 1)
    with pytest.raises(StoreRefused) as refused:
        await store.commit(next_move(2, transfers=ANTES, ops=(good, misfit), request_id="i-7"))
    assert isinstance(refused.value.__cause__, ResponseError)
    assert "does not fit" in str(refused.value.__cause__)
    assert await everything(redis) == before


async def test_new_players_count_at_their_start_balance(store: RedisStore) -> None:
    """A player created by this commit can be expected at the start balance and ante at once."""
    await store.commit(new_game())
    join = next_move(
        1,
        ensure_accounts=("u3",),
        expected_balances=(("u3", 100),),
        transfers=(Transfer("u3", POT, 10),),
        report_accounts=("u3", MINT),
    )
    result = await store.commit(join)
    assert result.status is Status.OK
    assert result.balances == {"u3": 90, MINT: -300}


async def test_daily_claim_waits_for_its_cooldown(store: RedisStore) -> None:
    """The daily allowance can be claimed once per cooldown; too early says how long to wait."""

    def claim(now: int) -> Commit:
        return Commit(
            scope=SCOPE,
            daily=DailyClaim(ANN, now=now, cooldown=DAY),
            transfers=(Transfer(MINT, ANN, 25),),
            journal=Journal("daily"),
            report_accounts=(ANN,),
        )

    assert (await store.commit(claim(1000))).balances == {ANN: 25}
    early = await store.commit(claim(1000 + DAY - 60))
    assert (early.status, early.retry_after) == (Status.DAILY_WAIT, 60)
    assert (await store.commit(claim(1000 + DAY))).balances == {ANN: 50}


async def test_due_lists_channels_whose_deadline_passed(store: RedisStore) -> None:
    """Deadlines come due at their time, and leave with the game or its next move."""
    await store.commit(new_game("c1", deadline=100))
    await store.commit(new_game("c2", deadline=200))
    await store.commit(new_game("c3"))
    assert await store.due(SCOPE, 99) == []
    assert await store.due(SCOPE, 150) == ["c1"]
    assert await store.due(SCOPE, 200) == ["c1", "c2"]
    await store.commit(next_move(1, record=None))
    await store.commit(replace(next_move(1), channel="c2"))
    assert await store.due(SCOPE, 10_000) == []
    assert await store.load(SCOPE, "c1") is None


async def test_stats_min_ops_keep_the_lowest(store: RedisStore) -> None:
    """HMIN and ZMIN set a missing value, lower a larger one, and keep a smaller one."""

    def best(score: int) -> Commit:
        return Commit(
            scope=SCOPE,
            ops=(
                StoreOp(OpKind.HMIN, f"stats:{ANN}", "best", score),
                StoreOp(OpKind.ZMIN, "lb:best", ANN, score),
                StoreOp(OpKind.HINCRBY, f"stats:{ANN}", "games", 1),
                StoreOp(OpKind.ZINCRBY, "lb:wins", ANN, 2),
                StoreOp(OpKind.HSET, f"stats:{ANN}", "rules", "classic"),
                StoreOp(OpKind.ZSET, "lb:last", ANN, score),
            ),
        )

    for score in (30, 12, 20):
        assert (await store.commit(best(score))).status is Status.OK
    stats = await store.hash(SCOPE, f"stats:{ANN}")
    assert stats == {"best": "12", "games": "3", "rules": "classic"}
    assert await store.top(SCOPE, "lb:best", ascending=True) == [(ANN, 12.0)]
    assert await store.top(SCOPE, "lb:wins") == [(ANN, 6.0)]
    assert await store.top(SCOPE, "lb:last") == [(ANN, 20.0)]


async def test_chips_leaderboard_follows_player_balances(store: RedisStore) -> None:
    """lb:chips holds every player's balance, never the mint or a pot."""
    await store.commit(new_game(ensure_accounts=(ANN, BEN, "u3")))
    await store.commit(next_move(1, transfers=(*ANTES, Transfer(POT, "u3", 20))))
    board = await store.top(SCOPE, "lb:chips")
    assert board == [("u3", 120.0), (BEN, 90.0), (ANN, 90.0)]
    assert await store.top(SCOPE, "lb:chips", 1, ascending=True) == [(ANN, 90.0)]
    assert dict(board) == await store.balances(SCOPE, [ANN, BEN, "u3"])


async def test_server_config_fields_are_kept(store: RedisStore) -> None:
    """Server settings are a hash the store writes and reads back."""
    await store.set_fields(SCOPE, "cfg", {"lang": "da", "daily": "25"})
    assert await store.hash(SCOPE, "cfg") == {"lang": "da", "daily": "25"}


async def test_servers_lists_every_scope_with_a_game_or_chips(store: RedisStore) -> None:
    """A server is listed once it had a game or a player's chips, and only then."""
    slack = Scope("slack", "T1:x")
    await store.commit(new_game(scope=slack, ensure_accounts=()))
    await store.commit(Commit(scope=Scope("discord", "g2"), ensure_accounts=(ANN,)))
    await store.commit(Commit(scope=Scope("discord", "g3")))
    assert await store.servers() == [Scope("discord", "g2"), slack]


async def test_every_key_of_a_server_shares_one_hash_slot(redis: Redis, store: RedisStore) -> None:
    """All keys of a server carry the same hash tag, so a Redis Cluster keeps them in one slot."""
    await store.commit(
        new_game(
            transfers=ANTES,
            request_id="i-6",
            deadline=9,
            ops=(StoreOp(OpKind.ZINCRBY, "lb:wins", ANN, 1),),
        )
    )
    # the indexes over all servers
    global_keys = {core.store.redis_store.SERVERS_KEY, DUE_KEY, EPOCH_KEY}
    keys = [key for key in await redis.keys("*") if key not in global_keys]
    assert len(keys) >= 7
    assert {key_slot(key.encode()) for key in keys} == {key_slot(b"discord:g1")}


async def test_redis_unreachable_raises_store_unavailable() -> None:
    """With Redis down, every store call raises the one error the adapters can show."""
    client = aioredis.from_url(
        "redis://127.0.0.1:1/0", decode_responses=True, retry=Retry(NoBackoff(), 0)
    )
    store = RedisStore(client)
    try:
        with pytest.raises(StoreUnavailable) as raised:  # refused: the commit was never sent
            await store.commit(new_game())
        assert not isinstance(raised.value, OutcomeUnknown)
        assert raised.value.key == "error.redis"
        with pytest.raises(StoreUnavailable) as unavailable:
            await store.balances(SCOPE, ["ann"])
        assert unavailable.value.key == "error.redis"
        with pytest.raises(StoreUnavailable):
            await store.load(SCOPE, "c1")
        with pytest.raises(StoreUnavailable):
            await anext(aiter(store.journal(SCOPE)))
    finally:
        await client.aclose()


async def test_client_must_decode_responses(redis_url: str) -> None:
    """The store refuses a client that would hand it bytes."""
    client = aioredis.from_url(redis_url)
    with pytest.raises(ValueError, match="decode_responses"):
        RedisStore(client)
    await client.aclose()


@pytest.mark.parametrize("new_player", [False, True], ids=["evalsha", "pipeline"])
async def test_script_missing_from_the_server_is_loaded(
    redis: Redis, monkeypatch: pytest.MonkeyPatch, new_player: bool
) -> None:
    """After a Redis restart (empty script cache) the first commit loads the script and runs."""
    fresh_script = core.store.redis_store.COMMIT_LUA + f"\n-- {uuid.uuid4()}\n"
    monkeypatch.setattr(core.store.redis_store, "COMMIT_LUA", fresh_script)
    store = RedisStore(redis)
    ensure = (ANN,) if new_player else ()
    assert (await store.commit(new_game(ensure_accounts=ensure))).status is Status.OK
    assert await store.load(SCOPE, "c1") == StoredGame(1, "lobby c1")


async def test_commit_and_load_are_one_round_trip_each(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit (even with the new server's SADD) and a load with balances each send once."""
    await store.commit(new_game("warm-up"))  # the script is in the server's cache from here
    sends: list[bytes] = []
    original = AbstractConnection.send_packed_command

    async def counting(self: AbstractConnection, command: Any, check_health: bool = True) -> None:
        sends.append(command)
        await original(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counting)
    await store.commit(new_game(transfers=ANTES))
    await store.commit(next_move(1))
    await store.load_with_balances(SCOPE, "c1", [ANN, BEN])
    assert len(sends) == 3
