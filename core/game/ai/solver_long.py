"""Optimal play in the two-player long game (SPEC section 2 `long`).

The closer acts on the open tiles and the opener on the closed ones, by the same rules, and
whoever empties their side wins. So both play the same game on their own `available` mask, and
one table of win chances by that mask serves both: when a turn ends with `left` still available
to the mover, the other player takes over with `full ^ left`. Turns hand the box back and forth,
so the chances are found by value iteration rather than one pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from core.game.ai.solver import Choices, RollOutcomes, check_mask, preferred_count, roll_outcomes
from core.game.rules import Rules

CLOSER, OPENER = 0, 1
TOLERANCE = 1e-12
MAX_SWEEPS = 100_000  # a safety net: the iteration converges long before on every rule set


@dataclass(frozen=True, slots=True, eq=False)  # compared by identity: tables are big
class LongTable:
    """Win chances and best play in the long game, for the player about to roll (the mover)."""

    rules: Rules
    chances: tuple[float, ...]  # by the mover's available mask; 1.0 at 0 (nothing left: won)
    dice_chances: tuple[dict[int, float], ...]
    sweeps: int  # value-iteration passes it took

    def available(self, open_mask: int, mover: int) -> int:
        """The tiles the mover acts on: the open ones (closer) or the closed ones (opener)."""
        check_mask(self.rules, open_mask)
        if mover not in (CLOSER, OPENER):
            raise ValueError(f"mover must be {CLOSER} (closer) or {OPENER} (opener), not {mover}")
        return open_mask if mover == CLOSER else self.rules.full_mask ^ open_mask

    def win_chance(self, open_mask: int, mover: int) -> float:
        """The mover's chance to win, about to roll, both sides playing optimally."""
        return self.chances[self.available(open_mask, mover)]

    def dice_chance(self, open_mask: int, mover: int, count: int) -> float:
        """The mover's chance to win when rolling `count` dice now (optimally afterwards)."""
        mine = self.available(open_mask, mover)
        if count not in self.dice_chances[mine]:
            raise ValueError(f"{count} dice may not be rolled with {mine:#b} to play")
        return self.dice_chances[mine][count]

    def best_dice(self, open_mask: int, mover: int) -> int:
        """The dice count to roll; the full count when both are equally good."""
        by_count = self.dice_chances[self.available(open_mask, mover)]
        return preferred_count(self.rules, by_count, maximise=True)

    def move_values(
        self, open_mask: int, mover: int, dice: tuple[int, ...]
    ) -> list[tuple[int, float]]:
        """Each legal move (the tiles it flips) with the mover's win chance after it, best first."""
        mine = self.available(open_mask, mover)
        found = self.rules.allows(mine, dice)
        after = self._handover_chance if found.ends_turn else self.chances.__getitem__
        ranked = [(move, after(mine ^ move)) for move in found.moves]
        return sorted(ranked, key=lambda pair: -pair[1])

    def best_move(self, open_mask: int, mover: int, dice: tuple[int, ...]) -> int | None:
        """The optimal move, or None when the roll allows none."""
        ranked = self.move_values(open_mask, mover, dice)
        return ranked[0][0] if ranked else None

    def _handover_chance(self, left: int) -> float:
        """The mover's chance when their turn ends with `left` still to play."""
        return 1.0 if not left else 1.0 - self.chances[self.rules.full_mask ^ left]


@cache
def solve_long(rules: Rules) -> LongTable:
    """The long-game table for a rule set (built once per process)."""
    outcomes = roll_outcomes(rules, long_game=True)
    full = rules.full_mask
    chances = [1.0] + [0.5] * full
    handover = [1.0] + [1.0 - chances[full ^ left] for left in range(1, full + 1)]
    sweeps = 0
    while sweeps < MAX_SWEEPS:
        sweeps += 1
        if _sweep(outcomes, chances, handover) < TOLERANCE:
            break
    dice_chances = tuple(
        _dice_chances(mask, choices, chances, handover) for mask, choices in enumerate(outcomes)
    )
    return LongTable(rules, tuple(chances), dice_chances, sweeps)


def _sweep(outcomes: tuple[Choices, ...], chances: list[float], handover: list[float]) -> float:
    """One in-place pass over the masks, smallest first; returns the largest change."""
    full = len(chances) - 1
    change = 0.0
    for mask in range(1, full + 1):
        new = max(
            _chance_until_used(rolls, chances, handover, handover[mask])
            for _, rolls in outcomes[mask]
        )
        change = max(change, abs(new - chances[mask]))
        chances[mask] = new
        if mask != full:
            handover[full ^ mask] = 1.0 - new
    return change


def _chance_until_used(
    rolls: RollOutcomes, chances: list[float], handover: list[float], if_stuck: float
) -> float:
    """The chance to win with this many dice, rolling again whenever a stuck roll may
    (`Rules.rolls_again`).

    Such a roll gives the same state again, so the roll is effectively drawn from the other
    outcomes only (the best dice count stays the best after the reroll).
    """
    return _weighted_sum(rolls, chances, handover, if_stuck) / (rolls.rolls - rolls.stuck_again)


def _weighted_sum(
    rolls: RollOutcomes, chances: list[float], handover: list[float], if_stuck: float
) -> float:
    """The sum over the outcomes but the stuck ones that roll again of (ways) x (chance after)."""
    total = (rolls.stuck - rolls.stuck_again) * if_stuck
    for ways, left in rolls.moves:
        total += ways * max(map(chances.__getitem__, left))
    for ways, left in rolls.last_moves:
        total += ways * max(map(handover.__getitem__, left))
    return total


def _dice_chances(
    mask: int, choices: Choices, chances: list[float], handover: list[float]
) -> dict[int, float]:
    """The chance per dice count for the next roll, back to the best choice after a reroll."""
    return {
        count: (
            _weighted_sum(rolls, chances, handover, handover[mask])
            + rolls.stuck_again * chances[mask]
        )
        / rolls.rolls
        for count, rolls in choices
    }
