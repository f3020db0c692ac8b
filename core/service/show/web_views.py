"""What a server's page shows (adapters/web/ draws it): boards, players, the daily challenge.

Read-only, through the same store and texts as the chat commands, so a page never disagrees
with `/shutbox leaderboard` or `/shutbox stats`. Every person is shown by display name only:
a player's page is found by a token made from the page's slug and the player's id, so neither
a link nor the HTML carries a platform id, and a rotated slug gives new player links too.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from core.service.features.boards import MIN_DECISIONS_FOR_ACCURACY
from core.service.features.challenge import texts as challenge_texts
from core.service.features.challenge.board import day_results
from core.service.features.challenge.day import SERVER_KEY, Day, day_of
from core.service.features.economy import BOARDS, UNARCHIVED, Economy
from core.service.features.seasons import Seasons
from core.service.model import keys
from core.service.model.commit import Scope
from core.service.model.ports import GameStore
from core.service.model.settings import ServerConfig, StartOptions
from core.text.i18n import decimal, number, percent, t

PER_PAGE = 25
TOKEN_CHARS = 16


def player_token(slug: str, user: str) -> str:
    """The id of a player's page: stable while the slug is, and no way back to the user id."""
    return hmac.new(slug.encode(), user.encode(), hashlib.sha256).hexdigest()[:TOKEN_CHARS]


def plain(text: str) -> str:
    """A chat text without its Markdown bold and code marks (pages style their own titles)."""
    return text.replace("**", "").replace("`", "")


def user_of(names: dict[str, str], slug: str, token: str) -> str | None:
    """The member whose page `token` is, among those the server knows by name."""
    return next((u for u in names if hmac.compare_digest(player_token(slug, u), token)), None)


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    name: str
    value: str
    player: str  # the player's page token


@dataclass(frozen=True, slots=True)
class BoardPage:
    board: str
    title: str
    season: int | None  # None: the current season
    current: int  # the current season's number
    page: int  # from 0
    pages: int
    rows: tuple[Row, ...]


@dataclass(frozen=True, slots=True)
class PlayerPage:
    name: str
    lines: tuple[str, ...]
    places: tuple[tuple[str, int, int], ...]  # (board title, place, players on it)
    user: str  # to find their matches; never put on a page


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    rank: int
    name: str
    result: str
    time: str
    player: str


@dataclass(frozen=True, slots=True)
class ChallengePage:
    number: int  # 0: the server has had no challenge yet
    commitment: str
    finished_today: int  # how many have played today (their results wait for the day's end)
    rows: tuple[ChallengeRow, ...]  # the results of `yesterday`
    yesterday: int  # the last day that is over, whose seed is public (0: none)
    record: str  # that day's record, for the verifier ("" when none)


@dataclass(frozen=True, slots=True)
class WebViews:
    store: GameStore
    clock: Callable[[], float]

    @property
    def economy(self) -> Economy:
        return Economy(self.store, self.clock)

    async def config(self, scope: Scope) -> ServerConfig:
        return ServerConfig.from_fields(await self.store.hash(scope, keys.CONFIG))

    async def names(self, scope: Scope, lang: str) -> Callable[[str], str]:
        """Display names by user id; one never seen gets a placeholder, never the id."""
        names = await self.store.hash(scope, keys.NAMES)
        unnamed = t(lang, "web.unnamed")
        return lambda user: names.get(user) or unnamed

    async def season(self, scope: Scope) -> int:
        return (await Seasons(self.store.seasons, self.clock).current(scope)).number

    async def board(
        self, scope: Scope, slug: str, board: str, season: int | None, page: int, lang: str
    ) -> BoardPage | None:
        """One page of a board (of ended `season`); None for a board or season there is not."""
        current = await self.season(scope)
        if board not in BOARDS or (
            season is not None and (not 1 <= season < current or board in UNARCHIVED)
        ):
            return None
        rows = await self.economy.board_rows(scope, board, None, season)
        name = await self.names(scope, lang)
        pages = max(1, -(-len(rows) // PER_PAGE))
        page = min(max(page, 0), pages - 1)
        first = page * PER_PAGE
        shown = [
            Row(rank, name(user), _value(board, value, lang), player_token(slug, user))
            for rank, (user, value) in enumerate(rows[first : first + PER_PAGE], first + 1)
        ]
        title = plain(t(lang, f"board.title.{board}", min=MIN_DECISIONS_FOR_ACCURACY))
        return BoardPage(board, title, season, current, page, pages, tuple(shown))

    async def player(self, scope: Scope, slug: str, token: str, lang: str) -> PlayerPage | None:
        """A player's numbers and places; None for a token of no one on this server."""
        names = await self.store.hash(scope, keys.NAMES)
        user = user_of(names, slug, token)
        if user is None:
            return None
        config = await self.config(scope)
        stats = await self.economy.stats(scope, user, names[user], config, lang)
        lines = tuple(plain(line) for text in stats.public for line in text.split("\n"))
        places = []
        for board in BOARDS:
            rows = await self.economy.board_rows(scope, board, None)
            place = next((rank for rank, (u, _) in enumerate(rows, 1) if u == user), 0)
            if place:
                title = plain(t(lang, f"board.title.{board}", min=MIN_DECISIONS_FOR_ACCURACY))
                places.append((title, place, len(rows)))
        return PlayerPage(names[user], lines[1:], tuple(places), user)

    async def challenge(self, scope: Scope, slug: str, lang: str) -> ChallengePage:
        """Today: how many have played, never their results (as in chat, no one sees a result
        before playing) and no dice; the last day that is over: its board and its dice."""
        fields = await self.store.hash(scope, SERVER_KEY)
        if "secret" not in fields or "first" not in fields:
            return ChallengePage(0, "", 0, (), 0, "")
        today = day_of(self.clock())
        number_today = (today - date.fromisoformat(fields["first"])).days + 1
        day = Day(scope, today, number_today, fields["secret"])
        finished = len(await day_results(self.store, scope, today))
        before = day.previous()
        if before is None:
            return ChallengePage(day.number, day.commitment, finished, (), 0, "")
        name = await self.names(scope, lang)
        rows = tuple(
            ChallengeRow(rank, name(user), challenge_texts.summary(result, lang),
                         challenge_texts.duration(result.seconds), player_token(slug, user))
            for rank, (_, user, result) in enumerate(
                await day_results(self.store, scope, before.day), 1)
        )  # fmt: skip
        rules = StartOptions().config(await self.config(scope), solo=True).rules
        return ChallengePage(day.number, day.commitment, finished, rows, before.number,
                             before.record(rules).to_json())  # fmt: skip


def _value(board: str, value: float, lang: str) -> str:
    if board == "accuracy":
        return percent(lang, value / 100)
    if board == "average":
        return decimal(lang, value)
    return number(lang, round(value))
