"""Exact optimal play for one turn, by dynamic programming over the set of open tiles.

A state is the mask of tiles the player may still act on (`available`). Every move closes at
least one tile, so a move always leads to a smaller mask and one pass over the masks in
increasing order solves the whole turn. The roll outcomes of every mask are built once per rule
set and format (`roll_outcomes`, from `Rules.allows_on_boards`, `Rules.roll_key` and
`Rules.rolls_again`: the solver has no rule of its own) and shared by the objectives, and by the
long game (`core.game.ai.solver_long`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from itertools import product
from typing import NamedTuple, TypeVar

from core.game.moves import Options, mask_sums
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


# The rolls of one key: their ways, their ways that roll again when stuck, what they allow by board.
RollGroup = tuple[int, int, dict[int, Options]]


@cache
def roll_outcomes(rules: Rules, *, long_game: bool) -> tuple[Choices, ...]:
    """For every mask, the dice counts the player may roll and what each roll allows, the rolls
    that share a `Rules.roll_key` grouped (under `any`, the rolls of one total)."""
    return outcomes_on_boards(rules, range(rules.full_mask + 1), long_game=long_game)


def outcomes_on_boards(
    rules: Rules, masks: Sequence[int], *, long_game: bool
) -> tuple[Choices, ...]:
    """`roll_outcomes` of each of the masks: the cross-checks ask it on a spread of boards
    without building every board's."""
    by_count: dict[int, list[int]] = {}
    for mask in masks:
        for count in _counts(rules, mask):
            by_count.setdefault(count, []).append(mask)
    groups = {n: roll_groups(rules, n, boards, long_game) for n, boards in by_count.items()}
    return tuple(
        tuple((count, _grouped(mask, count, groups[count])) for count in _counts(rules, mask))
        for mask in masks
    )


def roll_groups(
    rules: Rules, count: int, boards: Sequence[int], long_game: bool
) -> tuple[RollGroup, ...]:
    """The rolls of `count` dice by `Rules.roll_key`: how many ordered rolls give each key, how
    many of those roll again when stuck (`Rules.rolls_again`), and what the key's rolls allow on
    each of the boards (`Rules.allows_on_boards`)."""
    by_key: dict[tuple[int, ...], tuple[tuple[int, ...], int, int]] = {}
    for dice, ways in sorted_rolls(count):
        key = rules.roll_key(dice)
        first, total, again = by_key.get(key, (dice, 0, 0))
        again += ways if rules.rolls_again(dice, long_game=long_game) else 0
        by_key[key] = (first, total + ways, again)
    return tuple(
        (ways, again, rules.allows_on_boards(dice, boards))
        for dice, ways, again in by_key.values()
    )


def _counts(rules: Rules, mask: int) -> tuple[int, ...]:
    return rules.dice_choices(mask) if mask else ()


def _grouped(mask: int, count: int, groups: tuple[RollGroup, ...]) -> RollOutcomes:
    moves: list[Group] = []
    last_moves: list[Group] = []
    stuck = stuck_again = 0
    for ways, again, allows in groups:
        found = allows[mask]
        closes = found.moves
        if not closes:
            stuck += ways
            stuck_again += again
        elif found.ends_turn:
            last_moves.append((ways, tuple([mask ^ move for move in closes])))
        else:
            moves.append((ways, tuple([mask ^ move for move in closes])))
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
