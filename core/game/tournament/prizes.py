"""The prize split: the pot paid to the top places by the percentages chosen at `create`.

Each place gets its percentage of the pot, rounded down. A place that nobody can take (fewer
players than places) adds its percentage to first place, and the chips that rounding down
leaves over go to first place too, so the prizes always add up to the pot.
"""

from __future__ import annotations

from core.game.tournament.errors import InvalidTournament
from core.game.tournament.values import MAX_PLACES, check_split


def prizes(pot: int, split: tuple[int, ...], players: int) -> tuple[int, ...]:
    """What each place from first down is paid; as many places as the split and the field allow."""
    check_split(split)
    if pot < 0 or players < 1:
        raise ValueError("a pot is never negative and a tournament has players")
    places = min(len(split), players)
    shares = [split[0] + sum(split[places:]), *split[1:places]]
    paid = [pot * share // 100 for share in shares]
    paid[0] += pot - sum(paid)
    return tuple(paid)


def parse_split(text: str) -> tuple[int, ...]:
    """`60/30/10` (or `60-30-10`, `60,30,10`): the percentages from first place down."""
    cleaned = text.strip().replace("-", "/").replace(",", "/").replace("%", "")
    parts = tuple(part.strip() for part in cleaned.split("/"))
    if not all(part.isascii() and part.isdigit() and len(part) <= 3 for part in parts):
        raise InvalidTournament("error.tournament.split", value=text[:20], max=MAX_PLACES)
    split = tuple(int(part) for part in parts)
    check_split(split)
    return split
