"""Exact optimal play for one turn, by dynamic programming over the set of open tiles.

A state is the mask of tiles the player may still act on (`available`). Every move closes at
least one tile, so a move always leads to a smaller mask and one pass over the masks in
increasing order solves the whole turn. The roll outcomes of every mask are built once per rule
set and format (`roll_outcomes`, from `Rules.allows` and `Rules.rolls_again`) and shared by the
objectives, and by the long game (`core.game.ai.solver_long`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from itertools import product
from typing import NamedTuple, TypeVar

from core.game.moves import mask_sums
from core.game.rules import Rules

Num = TypeVar("Num", float, Fraction)
TIE = 1e-9  # values closer than this are equally good: float sums differ in the last bits
Group = tuple[int, tuple[int, ...]]  # (ways to roll it, the masks left after each legal move)


class Objective(StrEnum):
    """What optimal play optimises."""

    SUM = "sum"  # minimise the expected sum of the open tiles at the end of the turn
    COUNT = "count"  # minimise the expected number of open tiles
    SHUT = "shut"  # maximise the chance to close every tile

    @property
    def maximises(self) -> bool:
        return self is Objective.SHUT


class RollOutcomes(NamedTuple):
    """Everything a roll of `count` dice can lead to from one mask, grouped by what it allows."""

    rolls: int  # equally likely ordered outcomes: 6 ** count
    stuck: int  # outcomes with no legal move
    stuck_again: int  # of those, the ones that roll again (`Rules.rolls_again`)
    moves: tuple[Group, ...]  # outcomes whose moves continue the turn
    last_moves: tuple[Group, ...]  # outcomes whose moves end the turn (the last-die rule)


Choices = tuple[tuple[int, RollOutcomes], ...]  # per dice count the player may roll


@cache
def sorted_rolls(count: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Each distinct roll of `count` dice, lowest die first, with how many ordered rolls give it."""
    ways: dict[tuple[int, ...], int] = {}
    for dice in product(range(1, 7), repeat=count):
        key = tuple(sorted(dice))
        ways[key] = ways.get(key, 0) + 1
    return tuple(ways.items())


@cache
def sum_ways(rules: Rules, count: int, long_game: bool) -> tuple[tuple[int, int, int], ...]:
    """Each total of `count` dice with how many ordered rolls give it, and how many of those roll
    again when stuck (`Rules.rolls_again`)."""
    totals: dict[int, list[int]] = {}
    for dice, ways in sorted_rolls(count):
        entry = totals.setdefault(sum(dice), [0, 0])
        entry[0] += ways
        entry[1] += ways if rules.rolls_again(dice, long_game=long_game) else 0
    return tuple((total, ways, doubles) for total, (ways, doubles) in sorted(totals.items()))


@cache
def roll_outcomes(rules: Rules, *, long_game: bool) -> tuple[Choices, ...]:
    """For every mask, the dice counts the player may roll and what each roll allows."""
    if rules.by_total:
        return _any_outcomes(rules, long_game)
    return _dice_rule_outcomes(rules, long_game)


def _counts(rules: Rules, mask: int) -> tuple[int, ...]:
    return rules.dice_choices(mask) if mask else ()


def _any_outcomes(rules: Rules, long_game: bool) -> tuple[Choices, ...]:
    left = _left_by_sum(rules.tiles, 6 * rules.dice)
    return tuple(
        tuple(
            (count, _group_by_sum(sum_ways(rules, count, long_game), left[mask], count))
            for count in _counts(rules, mask)
        )
        for mask in range(rules.full_mask + 1)
    )


def _left_by_sum(tiles: int, top: int) -> list[list[tuple[int, ...]]]:
    """`left[mask][s]`: what is left of `mask` after each way to close tiles adding up to `s`.

    Each row comes from the row of the mask without its highest tile, so the work is one step
    per move that adds up to a possible roll, not one per submask (3**tiles pairs in all).
    """
    left: list[list[tuple[int, ...]]] = [[(0,)] + [()] * top]
    for mask in range(1, 1 << tiles):
        tile = mask.bit_length()
        high = 1 << (tile - 1)
        below = left[mask ^ high]
        row = [tuple(rest | high for rest in below[total]) for total in range(top + 1)]
        for total in range(tile, top + 1):
            row[total] += below[total - tile]
        left.append(row)
    return left


def _group_by_sum(
    totals: tuple[tuple[int, int, int], ...], left: list[tuple[int, ...]], count: int
) -> RollOutcomes:
    groups: list[Group] = []
    stuck = stuck_again = 0
    for total, ways, again in totals:
        if left[total]:
            groups.append((ways, left[total]))
        else:
            stuck += ways
            stuck_again += again
    return RollOutcomes(6**count, stuck, stuck_again, tuple(groups), ())


def _dice_rule_outcomes(rules: Rules, long_game: bool) -> tuple[Choices, ...]:
    lookup = _OptionsLookup(rules, long_game)
    return tuple(
        tuple((count, _group_by_roll(lookup, mask, count)) for count in _counts(rules, mask))
        for mask in range(rules.full_mask + 1)
    )


class _OptionsLookup:
    """`Rules.allows`, remembered per relevant part of the mask (masks that agree on the tiles
    a roll reads, `Rules.reads`, allow the same moves), and `Rules.rolls_again` per roll."""

    def __init__(self, rules: Rules, long_game: bool) -> None:
        self.rules = rules
        rolls = [dice for count in (1, rules.dice) for dice, _ in sorted_rolls(count)]
        self.relevant = {dice: rules.reads(dice) for dice in rolls}
        self.again = {dice: rules.rolls_again(dice, long_game=long_game) for dice in rolls}
        self.known: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], bool]] = {}

    def __call__(self, mask: int, dice: tuple[int, ...]) -> tuple[tuple[int, ...], bool]:
        key = (dice, mask & self.relevant[dice])
        if key not in self.known:
            found = self.rules.allows(key[1], dice)
            self.known[key] = (found.moves, found.ends_turn)
        moves, ends_turn = self.known[key]
        return tuple([mask ^ move for move in moves]), ends_turn


def _group_by_roll(lookup: _OptionsLookup, mask: int, count: int) -> RollOutcomes:
    moves: list[Group] = []
    last_moves: list[Group] = []
    stuck = stuck_again = 0
    for dice, ways in sorted_rolls(count):
        left, ends_turn = lookup(mask, dice)
        if not left:
            stuck += ways
            stuck_again += ways if lookup.again[dice] else 0
        else:
            (last_moves if ends_turn else moves).append((ways, left))
    return RollOutcomes(6**count, stuck, stuck_again, tuple(moves), tuple(last_moves))


def _optimal_values(
    rules: Rules, terminal: Sequence[Num], better: Callable[[Iterable[Num]], Num]
) -> tuple[list[Num], list[dict[int, Num]]]:
    """Each mask's value before rolling, and its value per dice count, under optimal play."""
    outcomes = roll_outcomes(rules, long_game=False)
    all_rolls = (dice for count in (1, rules.dice) for dice, _ in sorted_rolls(count))
    rerolls = any(rules.rolls_again(dice, long_game=False) for dice in all_rolls)
    values: list[Num] = [terminal[0]]
    by_count: list[dict[int, Num]] = [{}]
    for mask, choices in enumerate(outcomes[1:], start=1):
        dice_values = {
            count: _roll_value(rolls, terminal[mask], values, terminal, better)
            for count, rolls in choices
        }
        value = better(dice_values.values())
        by_count.append(_chosen_now(choices, dice_values, value) if rerolls else dice_values)
        values.append(value)
    return values, by_count


def _roll_value(
    outcomes: RollOutcomes,
    if_stuck: Num,
    values: Sequence[Num],
    terminal: Sequence[Num],
    better: Callable[[Iterable[Num]], Num],
) -> Num:
    """The expected value of one roll, playing the best move on every outcome; a stuck roll that
    rolls again leaves the mask as it was, so the roll is drawn from the other outcomes only."""
    total = (outcomes.stuck - outcomes.stuck_again) * if_stuck
    for ways, left in outcomes.moves:
        total += ways * better(map(values.__getitem__, left))
    for ways, left in outcomes.last_moves:
        total += ways * better(map(terminal.__getitem__, left))
    return total / (outcomes.rolls - outcomes.stuck_again)


def _chosen_now(choices: Choices, until_used: dict[int, Num], value: Num) -> dict[int, Num]:
    """Each dice count's value for this roll only (the best one, worth `value`, after a reroll)."""
    return {
        count: (until_used[count] * (rolls.rolls - rolls.stuck_again) + rolls.stuck_again * value)
        / rolls.rolls
        for count, rolls in choices
    }


def terminal_values(rules: Rules, objective: Objective) -> list[float]:
    """What each mask is worth when the turn ends there."""
    if objective is Objective.SHUT:
        return [1.0] + [0.0] * rules.full_mask
    if objective is Objective.COUNT:
        return [float(mask.bit_count()) for mask in range(rules.full_mask + 1)]
    return [float(total) for total in mask_sums(rules.tiles)]


def check_mask(rules: Rules, mask: int) -> None:
    if not 0 <= mask <= rules.full_mask:
        raise ValueError(f"mask {mask:#b} is not a set of tiles 1..{rules.tiles}")


def preferred_count(rules: Rules, by_count: dict[int, float], *, maximise: bool) -> int:
    """The best dice count; the full count unless another is better by more than rounding."""
    sign = 1.0 if maximise else -1.0
    normal = by_count.get(rules.dice, 0.0)
    better = [count for count, value in by_count.items() if sign * (value - normal) > TIE]
    return better[0] if better else rules.dice


@dataclass(frozen=True, slots=True, eq=False)  # compared by identity: tables are big
class Table:
    """Optimal play for one rule set and objective: state values, dice choice, move ranking."""

    rules: Rules
    objective: Objective
    values: tuple[float, ...]
    dice_values: tuple[dict[int, float], ...]
    terminal: tuple[float, ...]

    def value(self, available: int) -> float:
        """The value before rolling, with the best choice of dice count."""
        check_mask(self.rules, available)
        return self.values[available]

    def dice_value(self, available: int, count: int) -> float:
        check_mask(self.rules, available)
        if not available:
            return self.terminal[0]
        if count not in self.dice_values[available]:
            raise ValueError(f"{count} dice may not be rolled with {available:#b} open")
        return self.dice_values[available][count]

    def best_dice(self, available: int) -> int:
        """The dice count to roll; the full count when both are equally good."""
        check_mask(self.rules, available)
        by_count = self.dice_values[available]
        return preferred_count(self.rules, by_count, maximise=self.objective.maximises)

    def move_values(self, available: int, dice: tuple[int, ...]) -> list[tuple[int, float]]:
        """Each legal move with the value after it, best first (display order among equals)."""
        check_mask(self.rules, available)
        found = self.rules.allows(available, dice)
        after = self.terminal if found.ends_turn else self.values
        return self._ranked((move, after[available ^ move]) for move in found.moves)

    def best_move(self, available: int, dice: tuple[int, ...]) -> int | None:
        """The optimal move, or None when the roll allows none."""
        ranked = self.move_values(available, dice)
        return ranked[0][0] if ranked else None

    def _ranked(self, pairs: Iterable[tuple[int, float]]) -> list[tuple[int, float]]:
        sign = -1.0 if self.objective.maximises else 1.0
        return sorted(pairs, key=lambda pair: sign * pair[1])


@cache
def solve(rules: Rules, objective: Objective) -> Table:
    """The optimal-play table for a rule set and objective (built once per process)."""
    terminal = terminal_values(rules, objective)
    better = max if objective.maximises else min
    values, by_count = _optimal_values(rules, terminal, better)
    return Table(rules, objective, tuple(values), tuple(by_count), tuple(terminal))


def exact_p_shut(rules: Rules) -> Fraction:
    """The chance to shut the box from the start under optimal play, as an exact fraction."""
    terminal = [Fraction(1)] + [Fraction(0)] * rules.full_mask
    values, _ = _optimal_values(rules, terminal, max)
    return values[rules.full_mask]
