"""Seasons in Redis: the `<tag>:season` hash {n, start} and the end of a season (season.lua).

Ending Season N renames every `<tag>:lb:*` board (all but `lb:chips`, which mirrors the
balances) to `<tag>:season:N:lb:*` and the `rating` hash to `<tag>:season:N:rating`, in one
script. The script names every board the server can have (`core.service.features.season_boards`:
derived from the rule sets, a few hundred keys, no scan of the keyspace); all share the
server's hash slot. The script also refuses a second end that lands moments after another
(`JUST_BEGUN`), records the admin's audit entry and deletes the archive that falls out of the
seasons kept, all in the same step.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from core.service.features.audit import AUDIT_CAP, AUDIT_KEY
from core.service.features.season_boards import SEASON_HASHES, season_boards
from core.service.model import keys as named
from core.service.model.commit import MINT, Scope
from core.service.model.ports import Ended, SeasonEnd
from core.store.errors import reachable

SEASON_LUA = files("core.store").joinpath("lua/season.lua").read_text(encoding="utf-8")
# A season begun by an end less than this long ago is not ended again: two admins (or two
# processes) sending `season end` at once end one season, not that one and an empty one.
JUST_BEGUN = 60


def archived(season: int, name: str) -> str:
    """A key of Season `season`'s archive, relative to the server: `season:3:lb:wins`."""
    return named.archived(season, name)


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
        `audit` and deleting the archive past the seasons kept in the same step."""
        boards = (*season_boards(), *SEASON_HASHES)
        expired = self._expired(season, boards)
        keys = [f"{scope.tag}:{name}" for name in (
            named.SEASON, named.season_request(request_id), named.BALANCES, named.JOURNAL,
            named.board("chips"), named.RATINGS,
        )]  # fmt: skip
        keys.append(f"{scope.tag}:{archived(season, 'rating')}")
        for board in boards:
            keys += [f"{scope.tag}:{board}", f"{scope.tag}:{archived(season, board)}"]
        keys += [f"{scope.tag}:{AUDIT_KEY}", *(f"{scope.tag}:{name}" for name in expired)]
        args = [str(season), str(now), "1" if reset_chips else "0", MINT, str(self._ttl),
                str(JUST_BEGUN), audit, str(AUDIT_CAP), str(len(expired))]  # fmt: skip
        with reachable():  # the script object loads itself again after a SCRIPT FLUSH
            status, number = await self._script(keys=keys, args=args)
        return SeasonEnd(Ended(status), int(number))

    def _expired(self, ending: int, boards: Sequence[str]) -> list[str]:
        """The archive that ending season `ending` puts past the seasons kept, named rather
        than scanned: each end drops the one season that falls out (every key of it)."""
        falling = ending - self.seasons_kept
        if self.seasons_kept <= 0 or falling < 1:
            return []
        return [archived(falling, name) for name in ("rating", *boards)]

    async def number(self, scope: Scope) -> int:
        """The current season's number without starting Season 1 (a read changes nothing)."""
        with reachable():
            found = await self._redis.hget(f"{scope.tag}:season", "n")
        return int(found or 1)

    async def season_stats(self, scope: Scope, fields: Sequence[str]) -> dict[str, str]:
        """The named fields of the current season's stats hash that are set (one hash for the
        whole server: never read whole)."""
        if not fields:
            return {}
        with reachable():
            found = await self._redis.hmget(f"{scope.tag}:{SEASON_HASHES[0]}", list(fields))
        return {name: str(value) for name, value in zip(fields, found, strict=True) if value}
