"""Moves as tile masks: what a roll allows (`Options`, decided by `Rules.allows`), and the masks'
arithmetic and display.

A move is a bitmask over tiles (bit t-1 stands for tile t). `available` is the set of tiles the
player may act on: the open tiles normally, the closed ones for the opener in the long game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class Options:
    """What a roll allows: the moves, and whether making one ends the turn (the last-die rule)."""

    moves: tuple[int, ...]
    ends_turn: bool = False


def bit(tile: int) -> int:
    return 1 << (tile - 1)


@cache
def tiles_of(mask: int) -> tuple[int, ...]:
    """The tile numbers in a mask, highest first (the order moves are shown in)."""
    return tuple(t for t in range(mask.bit_length(), 0, -1) if mask >> (t - 1) & 1)


def mask_of(tiles: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for tile in tiles:
        mask |= bit(tile)
    return mask


@cache
def move_label(mask: int) -> str:
    """`8+1` for tiles 8 and 1."""
    return "+".join(str(t) for t in tiles_of(mask))


@cache
def mask_sums(tiles: int) -> tuple[int, ...]:
    """The sum of the tile numbers in every mask over `tiles` tiles."""
    sums = [0] * (1 << tiles)
    for mask in range(1, 1 << tiles):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + low.bit_length()
    return tuple(sums)


def subsets_with_sum(available: int, total: int, tiles: int) -> tuple[int, ...]:
    """Every non-empty set of available tiles whose numbers add up to `total`."""
    sums = mask_sums(tiles)
    found = []
    sub = available
    while sub:
        if sums[sub] == total:
            found.append(sub)
        sub = (sub - 1) & available
    return tuple(found)


def one_tile(available: int, value: int, tiles: int) -> list[int]:
    """The tile of one die (or of the dice's sum), when there is one and it is available."""
    return [bit(value)] if 1 <= value <= tiles and available & bit(value) else []


def either_tile(available: int, dice: tuple[int, ...], tiles: int) -> tuple[int, ...]:
    """The tile of either die, when it is available, each once (a double offers its tile once)."""
    return tuple(found for die in sorted(set(dice)) for found in one_tile(available, die, tiles))


def both_tiles(available: int, a: int, b: int, tiles: int) -> list[int]:
    """Both dice's tiles at once; a double cannot close one tile twice."""
    if a == b or max(a, b) > tiles:
        return []
    both = bit(a) | bit(b)
    return [both] if available & both == both else []


def display_order(moves: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Fewest tiles first, then the highest tiles first: `9`, `8+1`, `7+2`, `4+3+2`."""
    return tuple(sorted(set(moves), key=lambda m: (m.bit_count(), [-t for t in tiles_of(m)])))
