"""How many tables a round has, and their sizes: full tables first, and a remainder of one
sits the round out (a bye); a larger remainder plays at a smaller table."""

from __future__ import annotations


def table_sizes(players: int, table_size: int) -> tuple[tuple[int, ...], bool]:
    """The tables' sizes and whether one player has a bye, e.g. 7 players at 3: (3, 3), bye."""
    full, rest = divmod(players, table_size)
    sizes = (table_size,) * full + ((rest,) if rest >= 2 else ())
    return sizes, rest == 1
