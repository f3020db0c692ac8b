"""A restore puts back the start times of the tournaments it restores.

The index of starts (`stb:{tstarts}`, core/store/tournament_starts.py) is shared by every
server, so a file may lack it (taken before it existed, or with the index lost meanwhile) or
hold it only for some servers; without its entry a restored tournament would start only at the
first `tournament` command after its time. Each restored server's open tournaments with a
start time are entered again; an entry already there is written with the same time, and one
that leads to a tournament no longer open is dropped by the sweep as ever.
"""

from __future__ import annotations

from collections.abc import Iterable

from redis.exceptions import ResponseError

from core.game.errors import CorruptState
from core.game.tournament.text_form import from_text
from core.game.tournament.values import Status
from core.service.model import keys
from core.store.commit_wire import scope_of, server_key
from core.store.ledger import RedisClient
from core.store.tournament_starts import TournamentStarts


async def index_tournament_starts(redis: RedisClient, servers: Iterable[str]) -> int:
    """Enter every open tournament with a start time of these servers (`platform:server`)
    in the index of starts; the number entered."""
    starts, entered = TournamentStarts(redis), 0
    for server in sorted(servers):
        scope = scope_of(server)
        for tournament_id in await _open_ids(redis, server_key(scope, keys.TOURNAMENTS)):
            record = server_key(scope, keys.tournament(tournament_id))
            due = _start_of(await _field(redis, record, "r"))
            if due is not None:
                await starts.plan(scope, tournament_id, due)
                entered += 1
    return entered


async def _open_ids(redis: RedisClient, key: str) -> set[str]:
    """The ids the server's channels name as their open or running tournament."""
    try:
        found = await redis.hgetall(key)
    except ResponseError:  # a key of another type: its `tournament` command says so
        return set()
    return {str(value) for value in found.values() if value}


async def _field(redis: RedisClient, key: str, field: str) -> str | None:
    try:
        value = await redis.hget(key, field)
    except ResponseError:
        return None
    return None if value is None else str(value)


def _start_of(text: str | None) -> int | None:
    """The start time of a tournament still open; None for any other, or an unreadable one
    (its channel's `tournament` command answers for it)."""
    if not text:
        return None
    try:
        tournament = from_text(text)
    except CorruptState:
        return None
    if tournament.status is not Status.OPEN or not tournament.settings.starts_at:
        return None
    return int(tournament.settings.starts_at)
