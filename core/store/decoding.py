"""What the store reads of a game and of the balances, and the narrow error for a value it can't.

A game whose version is not a number, a balance that is not an integer, a key of the wrong
type: each raises `Unreadable` (core/service/model/unreadable.py) naming that one record, so
the manager can answer that one game or member and go on with everything else. Also the two
scripts that contain such a game: the sweep moves its deadline on, an admin's `stop` clears it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from redis.exceptions import ResponseError

from core.game.numbers import stored_int
from core.service.model import keys as named
from core.service.model import unreadable
from core.service.model.commit import Scope, StoredGame
from core.service.model.unreadable import Kind, Unreadable
from core.store.commit_wire import server_key
from core.store.errors import reachable

# The sweep's deadline for a game it can't read, only while it is still the one that came due
# (ARGV[1], now): a commit since then wrote a later one, which stands.
PARK_LUA = (
    "local due = redis.call('ZSCORE', KEYS[1], ARGV[1]) "
    "if not due or tonumber(due) > tonumber(ARGV[2]) then return 0 end "
    "redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) return 1"
)
# An admin's `stop` of a game that can't be read: only the very value that was read is removed
# (a key of another type, if that is what was read), with its deadline. Its chips stay where
# the journal put them (docs/operate/failures.md).
CLEAR_LUA = (
    "local kind = redis.call('TYPE', KEYS[1]).ok "
    "if kind == 'none' then return 0 end "
    "if kind == 'hash' then "
    "  if ARGV[2] == '' or redis.call('HGET', KEYS[1], 'r') ~= ARGV[2] then return 0 end "
    "elseif ARGV[2] ~= '' then return 0 end "
    "redis.call('DEL', KEYS[1]) redis.call('ZREM', KEYS[2], ARGV[1]) return 1"
)


@contextmanager
def typed(refused: Callable[[ResponseError], Unreadable]) -> Iterator[None]:
    """A key holding another type than the read expects (WRONGTYPE) is an unreadable record,
    not a Redis in trouble: used inside `reachable()`, which maps every other refusal."""
    try:
        yield
    except ResponseError as exc:
        if not str(exc).startswith("WRONGTYPE"):
            raise
        raise refused(exc) from exc


def stored_game(channel: str, version: Any, record: Any, message: Any = None) -> StoredGame | None:
    """The game as stored, or None; `Unreadable` if its version is not a number."""
    if version is None or record is None:
        return None
    number = stored_int(str(version))
    if number is None:
        raise unreadable.game(channel, f"version {str(version)[:20]!r}", str(record))
    return StoredGame(number, str(record), str(message or ""))


def present(accounts: Sequence[str], found: list[Any]) -> dict[str, int]:
    """The accounts that have a balance, with it; `Unreadable` for one that is not an integer."""
    balances = {}
    for account, value in zip(accounts, found, strict=True):
        if value is None:
            continue
        # `int()` would read `٣` as 3 where the commit script (Lua) refuses it: one rule for both
        balance = stored_int(str(value))
        if balance is None:
            raise unreadable.balance(account, f"not a whole number: {str(value)[:20]!r}")
        balances[account] = balance
    return balances


def refuse_if_unreadable(data: dict[str, Any]) -> None:
    """The commit script read a balance that is not an integer and wrote nothing."""
    if data.get("s") == "unreadable":
        raise unreadable.balance(str(data.get("a", "")), "the stored balance is not an integer")


def wrong_game(channel: str) -> Callable[[ResponseError], Unreadable]:
    return lambda exc: unreadable.game(channel, exc, "")


def wrong_balances(exc: ResponseError) -> Unreadable:
    return Unreadable(Kind.BALANCE, named.BALANCES, exc)


class Containment:
    """Mixed into `RedisStore`: the writes that keep an unreadable game in its box."""

    _redis: Any

    async def park_deadline(self, scope: Scope, channel: str, now: int, until: int) -> bool:
        """Move a due deadline of a game that can't be read on to `until`; False if a commit
        moved it meanwhile. The server's next deadline then comes from its other games."""
        keys = [server_key(scope, named.DEADLINES)]
        with reachable():
            done: Any = await self._redis.eval(PARK_LUA, 1, *keys, channel, now, until)
        return bool(done)

    async def clear_unreadable_game(self, scope: Scope, channel: str, raw: str) -> bool:
        """Remove the channel's game if it still holds what was read (`Unreadable.raw`)."""
        keys = [server_key(scope, named.game(channel)), server_key(scope, named.DEADLINES)]
        with reachable():
            done: Any = await self._redis.eval(CLEAR_LUA, 2, *keys, channel, raw)
        return bool(done)
