"""The close rules as objects with a fixed set of hooks, the way a chess variant overrides a few
methods of its board: which tiles a roll may close on a board (`closings`), which tiles and which
part of the roll decide that (`reads`, `roll_key`), and the same question for every board in turn
(`closer`, which `any` answers from one table of sums instead of board by board).

Only `Rules` asks these hooks, from `allows` and `allows_on_boards`, and passes what they find to
`Rules.settle`, where the on/off rule options change the moves. The solvers, policies, odds and
reviews ask `Rules`, so a close rule or a rule option reaches every one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import Protocol

from core.game.moves import (
    Options,
    both_tiles,
    either_tile,
    mask_of,
    one_tile,
    subsets_with_sum,
)

Moves = tuple[int, ...]
RollKey = tuple[int, ...]
FACES = 6


class Rules(Protocol):
    """What the close rules read of `core.game.rules.Rules` (which imports them)."""

    @property
    def tiles(self) -> int: ...

    @property
    def dice(self) -> int: ...

    @property
    def full_mask(self) -> int: ...

    @property
    def high_mask(self) -> int: ...

    def one_die_allowed(self, available: int) -> bool: ...


class Closing:
    """A close rule that reads the dice one by one: the default hooks."""

    def closings(self, rules: Rules, available: int, dice: tuple[int, ...]) -> Moves:
        """The moves the close rule allows on `available` for `dice`, each once, before the rule
        options have their say (`Rules.settle`): one die closes its own tile."""
        if len(dice) == 1:
            return tuple(one_tile(available, dice[0], rules.tiles))
        a, b = dice
        return self.two_dice(rules, available, a, b)

    def two_dice(self, rules: Rules, available: int, a: int, b: int) -> Moves:
        """The moves a roll of two dice allows (a close rule of the dice's tiles says which)."""
        raise NotImplementedError

    def reads(self, rules: Rules, dice: tuple[int, ...]) -> int:
        """The tiles whose state can change what `dice` allow: the dice's tiles, their total's,
        and the high tiles (the one-die rule)."""
        return rules.high_mask | mask_of([*dice, sum(dice)])

    def roll_key(self, dice: tuple[int, ...]) -> RollKey:
        """What of a roll decides its moves: rolls with the same key allow the same moves on
        every board. Here the dice in any order."""
        return tuple(sorted(dice))

    def highest_closable(self, rules: Rules) -> int:
        """The highest tile any roll can close: the tile of two dice's total (12)."""
        return 2 * FACES

    def closer(self, rules: Rules, dice: tuple[int, ...]) -> Callable[[int], Options]:
        """`closings` for this roll as a function of the board, for asking it on every board."""
        return partial(self._closings_of, rules, dice)

    def _closings_of(self, rules: Rules, dice: tuple[int, ...], available: int) -> Options:
        return Options(self.closings(rules, available, dice))


class SumOrDice(Closing):
    """`sum-or-dice`: the total's tile or both dice's tiles (source 003)."""

    def two_dice(self, rules: Rules, available: int, a: int, b: int) -> Moves:
        pair = both_tiles(available, a, b, rules.tiles)
        if rules.one_die_allowed(available):
            # Source 003: once 7-8-9 are shut, choosing two dice means closing the dice's tiles.
            return tuple(pair)
        return tuple(one_tile(available, a + b, rules.tiles) + pair)


class Separate(Closing):
    """`separate`: the dice instead of the sum: either die's tile, or both dice's tiles."""

    def highest_closable(self, rules: Rules) -> int:
        return FACES

    def two_dice(self, rules: Rules, available: int, a: int, b: int) -> Moves:
        singles = either_tile(available, (a, b), rules.tiles)
        return (*singles, *both_tiles(available, a, b, rules.tiles))


class DiceTiles(Separate):
    """`dice`: the total's tile, either die's tile, or both dice's tiles."""

    def highest_closable(self, rules: Rules) -> int:
        return 2 * FACES

    def two_dice(self, rules: Rules, available: int, a: int, b: int) -> Moves:
        by_sum = one_tile(available, a + b, rules.tiles)
        return (*by_sum, *super().two_dice(rules, available, a, b))


class ByTotal(Closing):
    """`any`: every set of available tiles adding up to the roll's total. Only the total counts,
    and every tile may be part of a move."""

    def closings(self, rules: Rules, available: int, dice: tuple[int, ...]) -> Moves:
        return subsets_with_sum(available, sum(dice), rules.tiles)

    def reads(self, rules: Rules, dice: tuple[int, ...]) -> int:
        return rules.full_mask

    def highest_closable(self, rules: Rules) -> int:
        return FACES * rules.dice

    def roll_key(self, dice: tuple[int, ...]) -> RollKey:
        return (sum(dice),)

    def closer(self, rules: Rules, dice: tuple[int, ...]) -> Callable[[int], Options]:
        total = sum(dice)
        return [row[total] for row in found_by_total(rules.tiles, FACES * rules.dice)].__getitem__


@cache
def found_by_total(tiles: int, top: int) -> tuple[tuple[Options, ...], ...]:
    """`found[board][total]`: every set of the board's tiles adding up to `total` (up to `top`).

    Each row comes from the row of the board without its highest tile, so the work is one step
    per move that adds up to a possible roll, not one per subset of each board (3**tiles pairs),
    and a total the highest tile can't be part of shares the row below's answer.
    """
    nothing = Options(())
    rows: list[tuple[Options, ...]] = [(Options((0,)),) + (nothing,) * top]  # 0: the empty set
    for board in range(1, 1 << tiles):
        tile = board.bit_length()
        high = 1 << (tile - 1)
        below = rows[board ^ high]
        row = list(below)
        for total in range(tile, top + 1):
            with_high = below[total - tile].moves
            if with_high:
                row[total] = Options(below[total].moves + tuple([m | high for m in with_high]))
        rows.append(tuple(row))
    return tuple(rows)
