"""What a player who is all in is told (SPEC 4): when a round starts with their ante short, and
when a round they won pays them less than the whole pot."""

from __future__ import annotations

from collections.abc import Sequence

from core.game.side_pots import AllIn
from core.game.state import GameState
from core.text.i18n import join_list, t


def short_ante_lines(state: GameState, short: Sequence[tuple[str, int]], lang: str) -> list[str]:
    """Each player who could not pay the whole ante of the round that starts: all in."""
    names = {seat.id: seat.name for seat in state.seats}
    ante = state.config.stakes.amount
    return [
        t(lang, "notice.all_in" if paid else "notice.all_in_none",
          player=names.get(player, player), paid=paid, ante=ante)
        for player, paid in short
    ]  # fmt: skip


def all_in_lines(state: GameState, told: Sequence[AllIn] | None, lang: str) -> list[str]:
    """Who won less of the pot than its whole because they were all in, and who took the rest."""
    names = {seat.id: seat.name for seat in state.seats}
    lines = []
    for cap in told or ():
        key = "none" if not cap.paid else "kept" if not cap.to else "rest"
        players = join_list(lang, [names.get(player, player) for player in cap.to])
        lines.append(t(lang, f"summary.all_in.{key}", player=names.get(cap.player, cap.player),
                       paid=cap.paid, won=cap.won, rest=cap.rest, players=players))  # fmt: skip
    return lines
