"""Members who left the server while in a tournament: what the channel is told of each."""

from __future__ import annotations

from core.game.tournament.values import Tournament
from core.text.i18n import t


def left_lines(tournament: Tournament | None, left: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """One line per player who left, e.g. "Bob has left the server and is out of **Cup**."."""
    if tournament is None:
        return ()
    return tuple(t(lang, "tournament.member_left", player=tournament.name_of(p),
                   name=tournament.settings.name) for p in left)  # fmt: skip
