"""Seasons: `/shutbox season` shows the current one; an admin's `season end` archives every
leaderboard and the ratings as Season N and starts Season N+1 (core/store/season_store.py).

With `config season_days=N` a season older than N days ends by itself, lazily: the next
`season`, `leaderboard`, `rank` or `stats` on that server ends it and announces it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.game.errors import InvalidOption, NotAllowed
from core.service.features.audit import SYSTEM, Action, AuditEntry
from core.service.features.stats import season_fields
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.ports import Ended, SeasonStore
from core.service.model.settings import ServerConfig
from core.service.model.views import Reply
from core.text.i18n import day, t

DAY = 24 * 60 * 60
MAX_SEASON = 1_000_000  # the largest season number `leaderboard season=N` takes


@dataclass(frozen=True, slots=True)
class Season:
    number: int
    start: int


def over(season: Season, days: int, now: int) -> bool:
    """Whether `season_days` has run out for this season (never with 0, the manual setting)."""
    return days > 0 and now - season.start >= days * DAY


def announcement(lang: str, ended: int) -> str:
    return t(lang, "season.ended", season=ended, next=ended + 1)


@dataclass(frozen=True, slots=True)
class Seasons:
    store: SeasonStore
    clock: Callable[[], float]

    async def current(self, scope: Scope) -> Season:
        return Season(*await self.store.current(scope, int(self.clock())))

    async def tick(self, scope: Scope, config: ServerConfig) -> tuple[str, ...]:
        """End the season if `season_days` says it is over: its public announcement, if so.

        Every process may find it due at once; the request id names the season, so it ends once.
        A server that ends its seasons by hand (the default) costs no round trip here.
        """
        if config.season_days <= 0:
            return ()
        season = await self.current(scope)
        now = int(self.clock())
        if not over(season, config.season_days, now):
            return ()
        request = f"season-days:{season.number}"
        entry = AuditEntry(
            now,
            SYSTEM,
            "",
            Action.SEASON_END,
            detail={"season": season.number, "season_days": config.season_days},
        )
        ended = await self.store.end(scope, season.number, now, request, reset_chips=False,
                                     audit=entry.to_json())  # fmt: skip
        return (announcement(config.lang, ended.season),) if ended.status is Ended.OK else ()

    async def show(self, scope: Scope, lang: str) -> Reply:
        season = await self.current(scope)
        text = t(lang, "season.current", season=season.number, start=day(lang, season.start))
        return Reply(public=(text,))

    async def end(self, ctx: Context, config: ServerConfig, lang: str, reset_chips: bool) -> Reply:
        """An admin ends the current season; a repeated delivery is applied once."""
        if not ctx.admin:
            raise NotAllowed("error.admin_only")
        season = await self.current(ctx.scope)
        request = f"season-end:{ctx.request_id}"
        now = int(self.clock())
        entry = AuditEntry(
            now,
            ctx.user,
            ctx.name,
            Action.SEASON_END,
            detail={"season": season.number, "reset_chips": reset_chips},
        )
        ended = await self.store.end(ctx.scope, season.number, now, request,
                                     reset_chips=reset_chips, audit=entry.to_json())  # fmt: skip
        if ended.status is Ended.STALE:
            return Reply(private=t(lang, "season.already_ended", season=season.number))
        if ended.status is Ended.JUST_BEGUN:  # another admin's end got there moments before
            return Reply(private=t(lang, "season.just_ended", season=ended.season - 1,
                                   next=ended.season))  # fmt: skip
        if ended.status is Ended.DUPLICATE:
            return Reply(private=t(lang, "economy.duplicate"))
        public = announcement(config.lang, ended.season)
        if reset_chips:
            public += "\n" + t(config.lang, "season.chips_reset", chips=config.start_chips)
        return Reply(public=(public,))

    async def stats(self, scope: Scope, user: str) -> dict[str, str]:
        """`user`'s stats this season, by the field names of `stats:<user>`."""
        found = await self.store.season_stats(scope, season_fields(user))
        return {name.split("|", 1)[1]: value for name, value in found.items()}

    async def check_archived(self, scope: Scope, season: int) -> None:
        """`leaderboard ... season=N` reads only a season that has ended."""
        current = await self.current(scope)
        if not 1 <= season < current.number:
            raise InvalidOption("error.season.unknown", season=season, current=current.number)
