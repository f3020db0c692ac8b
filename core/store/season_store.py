"""Seasons in Redis: the `<tag>:season` hash {n, start} and the end of a season (season.lua).

Ending Season N renames every `<tag>:lb:*` board (all but `lb:chips`, which mirrors the
balances) to `<tag>:season:N:lb:*` and the `rating` hash to `<tag>:season:N:rating`, in one
script. The boards are found with SCAN first (a script must name its keys for Redis Cluster);
all of them share the server's hash slot.
"""

from __future__ import annotations

import re
from importlib.resources import files
from typing import Any

from core.service.audit import AUDIT_CAP, AUDIT_KEY
from core.service.commit import MINT, Scope
from core.service.ports import Ended, SeasonEnd
from core.store.errors import reachable

SEASON_LUA = files("core.store").joinpath("lua/season.lua").read_text(encoding="utf-8")
KEPT_BOARDS = ("lb:chips",)  # mirrors the balances: never archived
SCAN_COUNT = 1000
_GLOB = re.compile(r"([*?\[\]\\])")


def archived(season: int, name: str) -> str:
    """A key of Season `season`'s archive, relative to the server: `season:3:lb:wins`."""
    return f"season:{season}:{name}"


class SeasonStore:
    """The season hash and the archive of one Redis (a `Redis` or a `RedisCluster`)."""

    def __init__(self, redis: Any, request_ttl: int, seasons_kept: int = 0) -> None:
        self._redis = redis
        self._ttl = request_ttl
        self.seasons_kept = seasons_kept  # archives kept after a season ends; 0: every one
        self._script = redis.register_script(SEASON_LUA)

    async def current(self, scope: Scope, now: int) -> tuple[int, int]:
        """The current season's number and start; Season 1 starts the first time it is asked."""
        key = f"{scope.tag}:season"
        pipe = self._redis.pipeline(transaction=True)
        pipe.hsetnx(key, "n", "1")
        pipe.hsetnx(key, "start", str(now))
        pipe.hmget(key, ["n", "start"])
        with reachable():
            *_, (number, start) = await pipe.execute()
        return int(number), int(start)

    async def end(
        self, scope: Scope, season: int, now: int, request_id: str, *, reset_chips: bool,
        audit: str = "",
    ) -> SeasonEnd:  # fmt: skip
        """End `season` (refused as STALE if it is no longer the current one), recording
        `audit` and deleting the archives past the seasons kept in the same step."""
        boards = await self._boards(scope)
        expired = await self._expired(scope, season)
        keys = [f"{scope.tag}:{name}" for name in ("season", f"seasonreq:{request_id}", "bal",
                                                   "journal", "lb:chips", "rating")]  # fmt: skip
        keys.append(f"{scope.tag}:{archived(season, 'rating')}")
        for board in boards:
            keys += [f"{scope.tag}:{board}", f"{scope.tag}:{archived(season, board)}"]
        keys += [f"{scope.tag}:{AUDIT_KEY}", *(f"{scope.tag}:{name}" for name in expired)]
        args = [str(season), str(now), "1" if reset_chips else "0", MINT, str(self._ttl),
                audit, str(AUDIT_CAP), str(len(expired))]  # fmt: skip
        with reachable():  # the script object loads itself again after a SCRIPT FLUSH
            status, number = await self._script(keys=keys, args=args)
        return SeasonEnd(Ended(status), int(number))

    async def _expired(self, scope: Scope, ending: int) -> list[str]:
        """The archives' keys that ending season `ending` puts past the seasons kept."""
        if self.seasons_kept <= 0:
            return []
        prefix = f"{scope.tag}:"
        found: list[str] = []
        with reachable():
            async for key in self._redis.scan_iter(
                match=_GLOB.sub(r"\\\1", prefix) + "season:*", count=SCAN_COUNT
            ):
                name = str(key).removeprefix(prefix)
                number = name.split(":")[1]
                if number.isdigit() and int(number) <= ending - self.seasons_kept:
                    found.append(name)
        return sorted(found)

    async def _boards(self, scope: Scope) -> list[str]:
        """The server's boards (`lb:wins`, `lb:best:<rules>`, ...) but those that stay."""
        prefix = f"{scope.tag}:"
        match = _GLOB.sub(r"\\\1", prefix) + "lb:*"
        found: list[str] = []
        with reachable():
            async for key in self._redis.scan_iter(match=match, count=SCAN_COUNT):
                name = str(key).removeprefix(prefix)
                if name not in KEPT_BOARDS:
                    found.append(name)
        return sorted(set(found))
