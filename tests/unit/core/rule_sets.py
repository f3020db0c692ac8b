"""The rule sets the cross-checks run over: every one the options table can make, so a new rule
option is checked the moment it is in `RULE_OPTIONS`, a spread of boards for each, and random
boards and rolls."""

from __future__ import annotations

import random

from core.game.options import every_rule_set
from core.game.rules import Rules

EVERY_RULE_SET = every_rule_set()
# Every close rule with every on/off option, where building whole tables is cheap (9 tiles).
NINE_TILE_RULE_SETS = tuple(rules for rules in EVERY_RULE_SET if rules.tiles == 9)
# Every board of 9 tiles; an even spread of the 1,024 and 4,096 boards of 10 and 12 tiles.
BOARD_STRIDE = {9: 1, 10: 11, 12: 97}


def spread_of_boards(rules: Rules, stride: dict[int, int] | None = None) -> range:
    """The boards a cross-check visits: from 1 up to the full board, every `stride`-th."""
    step = (stride or BOARD_STRIDE)[rules.tiles]
    return range(1, rules.full_mask + 1, step)


def random_states(rules: Rules, count: int, seed: int) -> list[tuple[int, tuple[int, ...]]]:
    """Random (available, dice) pairs, with a dice count the player may roll there."""
    chooser = random.Random(seed)
    states = []
    for _ in range(count):
        available = chooser.randint(1, rules.full_mask)
        dice_count = chooser.choice(rules.dice_choices(available))
        states.append((available, tuple(chooser.randint(1, 6) for _ in range(dice_count))))
    return states
