"""The daily challenge as the server's other commands read it: today's day (its secret made
once), a member's streak, the day's board (`leaderboard challenge`) and the stats lines.

Each function takes what it uses: the store, or the `Services` a handler is given.
"""

from __future__ import annotations

from datetime import date

from core.game.dice import new_server_seed
from core.service.features.challenge import texts
from core.service.features.challenge.day import SERVER_KEY, STREAKS, Day, Result, Streak, day_of
from core.service.model import keys
from core.service.model.commit import Commit, OpKind, Scope, StoreOp
from core.service.model.context import Context
from core.service.model.ports import GameStore
from core.service.model.services import Services
from core.service.model.views import Reply
from core.text.i18n import t

BOARD_LINES = 10


async def challenge_day(store: GameStore, scope: Scope, today: date) -> Day:
    """Today's challenge: the server's secret made once (the first process to ask wins)."""
    fields = await store.hash(scope, SERVER_KEY)
    if "secret" not in fields:
        await store.commit(Commit(scope, ops=(
            StoreOp(OpKind.HEQ, SERVER_KEY, "secret", ""),
            StoreOp(OpKind.HSET, SERVER_KEY, "secret", new_server_seed()),
            StoreOp(OpKind.HSET, SERVER_KEY, "first", today.isoformat()),
        )))  # fmt: skip
        fields = await store.hash(scope, SERVER_KEY)
    first = date.fromisoformat(fields["first"])
    return Day(scope, today, (today - first).days + 1, fields["secret"])


async def streak_text(store: GameStore, scope: Scope, user: str) -> str:
    return (await store.hash(scope, STREAKS)).get(user, "")


async def day_results(store: GameStore, scope: Scope, day: date) -> list[tuple[int, str, Result]]:
    """A day's finished attempts, best first (an attempt still being played is none)."""
    played = await store.hash(scope, keys.challenge_day(day))
    return sorted(
        (result.rank_value, user, result) for user, text in played.items()
        if (result := _result(text)) is not None
    )  # fmt: skip


async def challenge_board(services: Services, ctx: Context) -> Reply:
    """Today's board, privately, once the caller has finished today's challenge."""
    store = services.store
    lang, today = await services.private_lang(ctx), day_of(services.clock())
    results = await day_results(store, ctx.scope, today)
    if all(user != ctx.user for _, user, _ in results):
        return Reply(private=t(lang, "challenge.board_locked"))
    day = await challenge_day(store, ctx.scope, today)  # made when the caller played
    names = await store.hash(ctx.scope, keys.NAMES)
    lines = [t(lang, "challenge.board_title", number=day.number),
             t(lang, "challenge.commitment", commitment=day.commitment)]  # fmt: skip
    for rank, (_, user, result) in enumerate(results, 1):
        if rank <= BOARD_LINES or user == ctx.user:
            if rank > BOARD_LINES + 1 and user == ctx.user:
                lines.append("…")
            lines.append(texts.board_line(rank, names.get(user, user), result, lang))
    return Reply(private="\n".join(lines))


async def challenge_stats(services: Services, ctx: Context, user: str, lang: str) -> list[str]:
    """The member's streaks, and today's result once the caller has played today too."""
    today = day_of(services.clock())
    streak = _streak(await streak_text(services.store, ctx.scope, user))
    if streak is None or not streak.played:  # none yet, or one that cannot be read: no line
        return []
    lines = [t(lang, "stats.challenge", current=streak.on(today), best=streak.best,
               played=streak.played)]  # fmt: skip
    played = await services.store.hash(ctx.scope, keys.challenge_day(today))
    theirs = _result(played.get(user, ""))
    if theirs is not None and _result(played.get(ctx.user, "")) is not None:
        lines.append(t(lang, "stats.challenge_today", result=texts.summary(theirs, lang),
                       time=texts.duration(theirs.seconds)))  # fmt: skip
    return lines


# What the boards and `stats` show leave out a stored result or streak that cannot be read (a
# damaged record), as an attempt not finished is left out: the rest still shows.
def _result(text: str) -> Result | None:
    try:
        return Result.from_str(text)
    except ValueError:
        return None


def _streak(text: str) -> Streak | None:
    try:
        return Streak.from_str(text)
    except ValueError:
        return None
