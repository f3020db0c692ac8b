"""A server with hostile display names on its boards, its page open, and a client for it."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from adapters.web.app import PREFIX, pages_app
from adapters.web.guard import Buckets
from core.game.dice import SecureDice
from core.service.api.commands import Begin, Join, Start
from core.service.features.challenge.day import day_of
from core.service.model.commit import Commit, OpKind, Scope, StoreOp
from core.service.model.context import Context
from core.service.model.settings import StartOptions
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import Table, manager

SCOPE = Scope("test", "guild")
SLUG = "AbCdEfGhIjKlMnOpQrStUv"
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
# Platform ids that must never reach a page
IDS = {"u-script-1001": SCRIPT, "u-img-1002": IMG, "u-ann-1003": "Ann & Bob's"}
NOW = 1_800_000_000.0


async def seed_boards(store: RedisStore, scope: Scope = SCOPE, players: int = 0) -> None:
    """The hostile players on the wins, shuts and rating boards, and `players` more on wins."""
    ops = [StoreOp(OpKind.HSET, "names", user, name) for user, name in IDS.items()]
    for score, user in enumerate(IDS, 1):
        ops += [
            StoreOp(OpKind.ZINCRBY, "lb:wins", user, score),
            StoreOp(OpKind.ZINCRBY, "lb:shuts", user, 1),
            StoreOp(OpKind.ZSET, "lb:rating", user, 1500 + score),
            StoreOp(OpKind.HINCRBY, f"stats:{user}", "games", 3 + score),
            StoreOp(OpKind.HINCRBY, f"stats:{user}", "wins", score),
        ]
    for number in range(players):
        user = f"u-extra-{number:04d}"
        ops += [StoreOp(OpKind.HSET, "names", user, f"Player {number:02d}"),
                StoreOp(OpKind.ZINCRBY, "lb:wins", user, 100 + number)]  # fmt: skip
    await store.commit(Commit(scope, ops=tuple(ops)))


async def seed_challenge(store: RedisStore, now: float, scope: Scope = SCOPE) -> str:
    """Day 2 of the server's challenge: day 1 played by two hostile names (and left unfinished
    by a third), today finished by Bob; the server's secret."""
    today = day_of(now)
    secret = "ab" * 32
    played = f"challenge:{(today - timedelta(days=1)).isoformat()}"
    await store.commit(Commit(scope, ops=(
        StoreOp(OpKind.HSET, "challenge", "secret", secret),
        StoreOp(OpKind.HSET, "challenge", "first", (today - timedelta(days=1)).isoformat()),
        StoreOp(OpKind.HSET, played, "u-img-1002", "r 2 90.0000 75 ggy"),
        StoreOp(OpKind.HSET, played, "u-ann-1003", "r 0 100.0000 41 ggg"),
        StoreOp(OpKind.HSET, played, "u-script-1001", "s"),
        StoreOp(OpKind.HSET, f"challenge:{today.isoformat()}", "u-bob-1004", "r 5 80.0000 30 gyy"),
    )))  # fmt: skip
    return secret


@asynccontextmanager
async def client(store: RedisStore, buckets: Buckets | None = None) -> AsyncIterator[TestClient]:
    """The pages mounted as the health server mounts them."""
    root = web.Application()
    root.add_subapp(PREFIX, pages_app(store, clock=lambda: NOW, buckets=buckets))
    async with TestClient(TestServer(root)) as opened:
        yield opened


async def play_hostile_match(store: RedisStore) -> None:
    """A real provably fair match between the two hostile names, played out to its end."""
    table = HostileTable(manager(store, dice=SecureDice()))
    host, guest = IDS["u-script-1001"], IDS["u-img-1002"]
    table.last = await table.manager.handle(table.ctx(host), Start(StartOptions(fair=True)))
    await table.manager.handle(table.ctx(guest), Join())
    table.last = await table.manager.handle(table.ctx(host), Begin())
    await table.play_out()


class HostileTable(Table):
    """A table whose players have the hostile display names and platform-like ids."""

    def ctx(self, user: str, *, request: str | None = None, admin: bool = False) -> Context:
        ids = {name: user_id for user_id, name in IDS.items()}
        request = request or f"h{next(_requests)}"
        return Context(SCOPE, self.channel, ids.get(user, user.lower()), user, admin=admin,
                       request_id=request)  # fmt: skip


_requests = itertools.count()
