"""`/shutbox rank [@user]`: a player's position on every board of the server."""

from __future__ import annotations

from core.service.features.boards import position
from core.service.features.economy import Economy
from core.service.model import keys
from core.service.model.context import Context
from core.service.model.views import Reply
from core.text.i18n import t

RANKED = ("wins", "rating", "rounds", "shuts", "chips", "best", "average", "accuracy")


async def rank_reply(economy: Economy, ctx: Context, user: str, name: str, lang: str) -> Reply:
    """`#4 of 37 by wins · #2 of 12 by accuracy · …` for each board the player is on."""
    # The name as the player is known here (`ann` typed in the playground reads as Ann).
    name = (await economy.store.hash(ctx.scope, keys.NAMES)).get(user) or name
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
