"""A bot process that ends one tournament table (an admin's `stop`) and is killed right after
the commit, before it tells anyone: `python -m tests.integration.table_end_process URL ID N`."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import redis.asyncio as aioredis

from core.service.features.tournaments import news
from core.service.features.tournaments.command import OpenTable
from core.service.pipeline.subcommands import parse
from core.store.redis_store import RedisStore
from tests.integration.manager_helpers import Clock, Table, manager
from tests.integration.test_tournament_commands import Plain


async def killed(*_: object) -> None:
    os.kill(os.getpid(), signal.SIGKILL)  # the commit is written; nothing after it runs


async def main(url: str, tournament: str, number: int) -> None:
    store = RedisStore(aioredis.from_url(url, decode_responses=True))
    table = Table(manager(store, clock=Clock()), channel=f"c1/r1t{number}")
    await table.manager.handle(table.ctx("Root"), OpenTable(tournament, 1, number))
    news.after_table = killed  # type: ignore[assignment]
    stop = parse("stop", Plain())  # type: ignore[arg-type]
    await table.manager.handle(table.ctx("Root", admin=True), stop)
    sys.exit(3)  # not reached: the table's end was not a tournament's step


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
