"""One member's data on one server: everything the bot holds about them, and its erasure.

Both walk every key of the server (they share its hash slot, `stb:{platform:server}:*`), so a
record added by a future feature is found without a list to keep up to date. The erasure is one
script (core/store/lua/forget.lua): the member's chips go back to the mint in one journal entry,
the journal and its checkpoint name a random pseudonym instead of the member, the audit log
keeps what admins did under that pseudonym, and every other record of the member goes.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from core.service.features.audit import AUDIT_CAP, AUDIT_KEY, AuditEntry
from core.service.model import keys as named
from core.service.model.commit import MINT, Scope
from core.store.errors import reachable

FORGET_LUA = files("core.store").joinpath("lua/forget.lua").read_text(encoding="utf-8")
# KEYS 1-5 of forget.lua
FIXED = (named.BALANCES, named.JOURNAL, named.CHECKPOINT, named.board("chips"), AUDIT_KEY)
SCAN_COUNT = 1000
LONG = 64  # as in forget.lua: a name is looked for inside texts longer than this
_GLOB = re.compile(r"([*?\[\]\\])")


class MemberPlaying(ValueError):
    """The member is seated in a running game: it must end (or be stopped) first."""

    def __init__(self, channel: str) -> None:
        super().__init__(channel)
        self.channel = channel


@dataclass(frozen=True, slots=True)
class Erased:
    pseudonym: str
    chips: int  # returned to the mint
    journal_entries: int  # that now name the pseudonym
    records: int  # removed: hash fields, board entries, keys
    left: tuple[str, ...]  # keys still holding the id or a name (a race with a new game)


class MemberData:
    """Export and erasure of one member (a `Redis` or a `RedisCluster` client)."""

    def __init__(self, redis: Any) -> None:
        self._redis = redis
        self._forget = redis.register_script(FORGET_LUA)

    async def server_keys(self, scope: Scope, pattern: str = "*") -> list[str]:
        """The server's keys (those whose name after the server's prefix fits `pattern`)."""
        match = _GLOB.sub(r"\\\1", f"{scope.tag}:") + pattern
        with reachable():
            found = [str(k) async for k in self._redis.scan_iter(match=match, count=SCAN_COUNT)]
        return sorted(set(found))

    async def holds_any(self, scope: Scope) -> bool:
        """Whether the server has any key at all (stops at the first found)."""
        match = _GLOB.sub(r"\\\1", f"{scope.tag}:") + "*"
        with reachable():
            async for _ in self._redis.scan_iter(match=match, count=SCAN_COUNT):
                return True
        return False

    async def names(self, scope: Scope, user: str) -> list[str]:
        """Every display name the server has for the member: the name list's, the audit's, and
        those the rematch records kept (a name may have changed since)."""
        found: set[Any] = set()
        with reachable():
            name = await self._redis.hget(f"{scope.tag}:names", user)
            audit = await self._redis.lrange(f"{scope.tag}:{AUDIT_KEY}", 0, -1)
        if name:
            found.add(str(name))
        for text in audit:
            data = _json(text)
            found |= {data.get(n) for i, n in (("by", "byn"), ("to", "ton")) if data.get(i) == user}
        for record in await self._rematch_records(scope):
            humans = _json(record).get("h", [])
            found |= {pair[1] for pair in humans if isinstance(pair, list) and pair[:1] == [user]}
        return sorted(n for n in found if isinstance(n, str) and n)

    async def known(self, scope: Scope, count: int) -> list[tuple[str, str]]:
        """Up to `count` members of the server as (id, display name), to show how ids look."""
        with reachable():
            names = await self._redis.hgetall(f"{scope.tag}:names")
        return sorted((str(uid), str(name)) for uid, name in names.items())[:count]

    async def _rematch_records(self, scope: Scope) -> list[str]:
        """Every channel's rematch record (core/service/features/rematch.py), older versions'
        too."""
        records: list[str] = []
        with reachable():
            for key in await self.server_keys(scope, "rematch*"):
                if str(await self._redis.type(key)) == "hash":
                    records += [str(v) for v in (await self._redis.hgetall(key)).values()]
        return records

    async def export(self, scope: Scope, user: str) -> dict[str, Any]:
        """Every record holding the member's id or name, by key (relative to the server)."""
        names = await self.names(scope, user)
        held: dict[str, Any] = {}
        for key in await self.server_keys(scope):
            found = await self._held(key, user, names)
            if found not in (None, {}, []):
                held[key.removeprefix(f"{scope.tag}:")] = found
        with reachable():
            balance = await self._redis.hget(f"{scope.tag}:{named.BALANCES}", user)
        return {"server": f"{scope.platform}:{scope.server}", "user": user, "names": names,
                "balance": None if balance is None else int(balance), "records": held}  # fmt: skip

    async def forget(self, scope: Scope, user: str, entry: AuditEntry) -> Erased:
        """Erase the member; `entry` (its target left empty) is recorded with the pseudonym."""
        names = await self.names(scope, user)
        keys = await self.server_keys(scope)
        await self._refuse_if_playing(scope, keys, user, names)
        pseudonym = f"erased:{secrets.token_hex(6)}"
        fixed = [f"{scope.tag}:{name}" for name in FIXED]
        others = [k for k in keys if k not in fixed and await self._holds(k, user, names)]
        audit = AuditEntry(entry.at, entry.actor, entry.actor_name, entry.action, pseudonym,
                           "", entry.detail)  # fmt: skip
        args = [user, json.dumps(names), pseudonym, MINT, audit.to_json(), str(AUDIT_CAP)]
        with reachable():
            chips, renamed, removed = await self._forget(keys=fixed + others, args=args)
        left = [k for k in await self.server_keys(scope) if await self._holds(k, user, names)]
        return Erased(pseudonym, int(chips), int(renamed), int(removed), tuple(left))

    async def _refuse_if_playing(
        self, scope: Scope, keys: list[str], user: str, names: list[str]
    ) -> None:
        """A game with others in a channel holds chips and seats: it ends first. The member's
        own daily challenge attempt moves no chips and goes with them, finished or not."""
        for key in keys:
            name = key.removeprefix(f"{scope.tag}:")
            # a member's daily challenge attempt (keys.challenge_game) holds no other player
            if name.startswith(named.challenge_games()) or not name.startswith(named.game("")):
                continue
            if await self._held(key, user, names):
                raise MemberPlaying(name.removeprefix(named.game("")))

    async def _holds(self, key: str, user: str, names: list[str]) -> bool:
        """Whether the key is named after the member (whatever it holds, "" too) or holds them."""
        return user in key.split(":") or await self._held(key, user, names) not in (None, {}, [])

    async def _held(self, key: str, user: str, names: list[str]) -> Any:
        """What `key` holds of the member: the whole value when the key is named after them."""
        with reachable():
            kind = str(await self._redis.type(key))
            value = await _read(self._redis, kind, key)
        if user in key.split(":"):
            return value
        return _matching(value, user, names)


async def _read(redis: Any, kind: str, key: str) -> Any:
    if kind == "hash":
        return {str(k): str(v) for k, v in (await redis.hgetall(key)).items()}
    if kind == "zset":
        return {str(m): s for m, s in await redis.zrange(key, 0, -1, withscores=True)}
    if kind == "string":
        return await redis.get(key)
    if kind == "list":
        return [str(v) for v in await redis.lrange(key, 0, -1)]
    if kind == "set":
        return sorted(str(v) for v in await redis.smembers(key))
    if kind == "stream":
        return [{"id": str(i), **fields} for i, fields in await redis.xrange(key)]
    return None


def _json(text: Any) -> dict[str, Any]:
    """A stored JSON object, or {} for anything else."""
    try:
        data = json.loads(str(text))
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def holds(text: str, user: str, names: list[str]) -> bool:
    """As forget.lua's `holds`: the id anywhere; a name whole, or inside a long text."""
    if user in text:
        return True
    return any(text == n or (len(text) > LONG and len(n) >= 3 and n in text) for n in names)


def _matching(value: Any, user: str, names: list[str]) -> Any:
    """The parts of a value that hold the member."""
    if isinstance(value, str):
        return value if holds(value, user, names) else None
    if isinstance(value, dict):  # a hash (as forget.lua's `field_holds`) or a sorted set
        return {k: v for k, v in value.items()
                if k in (user, f"{user}|{k.partition('|')[2]}") or user in k.split(":")
                or user in str(v) or str(v) in names}  # fmt: skip
    if isinstance(value, list):
        return [v for v in value
                if holds(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False),
                         user, names)]  # fmt: skip
    return None
