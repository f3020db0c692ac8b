"""The simulated player's policies: legal choices only, and greedy as its name says."""

from __future__ import annotations

import pytest

from core.game.ai.policies import Policy, make_player
from core.game.ai.solver import Objective, sorted_rolls
from core.game.rules import PRESETS, Rules
from tests.unit.core.rule_sets import NINE_TILE_RULE_SETS

CLASSIC = PRESETS["classic"]


@pytest.mark.parametrize("policy", [Policy.GREEDY, Policy.RANDOM])
@pytest.mark.parametrize("rules", NINE_TILE_RULE_SETS, ids=Rules.to_str)
def test_greedy_and_random_only_pick_legal_choices(policy: Policy, rules: Rules) -> None:
    """On every board and roll, the policy picks among allowed dice counts and legal moves only,
    for every close rule with every on/off option."""
    player, _ = make_player(rules, policy, Objective.SHUT)
    for board in range(1, rules.full_mask + 1):
        counts = player.dice_counts(board)
        assert counts and set(counts) <= set(rules.dice_choices(board))
        for count in counts:
            for dice, _ in sorted_rolls(count):
                legal = rules.allows(board, dice).moves
                moves = player.moves(board, dice)
                assert set(moves) <= set(legal) and bool(moves) == bool(legal)


def test_greedy_closes_the_highest_tile_with_the_fewest_tiles() -> None:
    """Greedy takes 9 for a 9, 9+1 for a 10, and rolls one die as soon as it may."""
    player, _ = make_player(CLASSIC, Policy.GREEDY, Objective.SHUT)
    full = CLASSIC.full_mask
    assert player.moves(full, (4, 5)) == (1 << 8,)
    assert player.moves(full, (4, 6)) == (1 << 8 | 1,)
    assert player.dice_counts(0b111111) == (1,)
