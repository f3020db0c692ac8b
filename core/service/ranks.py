"""`/shutbox rank [@user]`: a player's position on every board of the server."""

from __future__ import annotations

from core.service.context import Context
from core.service.economy import Economy
from core.service.views import Reply
from core.text.i18n import t

RANKED = ("wins", "rating", "rounds", "shuts", "chips", "best", "average", "accuracy")
LOWER_IS_BETTER = ("best", "average")


def position(rows: list[tuple[str, float]], user: str, board: str) -> int | None:
    """1 + how many players are strictly ahead (ties share a place); None when not listed."""
    mine = dict(rows).get(user)
    if mine is None:
        return None
    sign = -1 if board in LOWER_IS_BETTER else 1
    return 1 + sum(1 for _, value in rows if sign * (value - mine) > 0)


async def rank_reply(economy: Economy, ctx: Context, user: str, name: str, lang: str) -> Reply:
    """`#4 of 37 by wins · #2 of 12 by accuracy · …` for each board the player is on."""
    parts = []
    for board in RANKED:
        rows = await economy.board_rows(ctx.scope, board, None)
        place = position(rows, user, board)
        if place is not None:
            by = t(lang, f"rank.board.{board}")
            parts.append(t(lang, "rank.place", position=place, total=len(rows), board=by))
    if not parts:
        return Reply(public=(t(lang, "rank.none", player=name),))
    return Reply(public=(t(lang, "rank.title", player=name) + "\n" + " · ".join(parts),))
