"""Every rule set says truly whether its box can be shut, and `first-shut` needs one that can."""

from __future__ import annotations

import itertools

import pytest

from core.game.ai.solver import exact_p_shut
from core.game.errors import InvalidRules
from core.game.rules import TILE_COUNTS, CloseRule, Rules
from core.service.model.settings import ServerConfig, StartOptions


def _rule_sets() -> list[Rules]:
    """Every valid rule set of 9 and 10 tiles, and the 12-tile ones at the edges (solving the
    12-tile box takes seconds each: both 3-dice ones, and `separate`)."""
    found = [Rules(tiles=12, dice=3), Rules(tiles=12, dice=3, one_die=False),
             Rules(tiles=12, close=CloseRule.SEPARATE)]  # fmt: skip
    for tiles, dice, close, last_die, one_die in itertools.product(
        (9, 10), (2, 3), CloseRule, (False, True), (False, True)
    ):
        try:
            found.append(Rules(tiles=tiles, dice=dice, close=close, last_die=last_die,
                               one_die=one_die))  # fmt: skip
        except InvalidRules:
            continue
    return found


@pytest.mark.parametrize("rules", _rule_sets(), ids=Rules.to_str)
def test_can_shut_agrees_with_the_solver(rules: Rules) -> None:
    """`can_shut` is true exactly when optimal play shuts the box with some chance."""
    assert rules.can_shut == (exact_p_shut(rules) > 0)


@pytest.mark.parametrize("tiles", [9, 10, 12])
def test_first_shut_under_separate_is_refused_with_the_reason(tiles: int) -> None:
    """`close=separate format=first-shut` could never end: refused, naming the highest tile."""
    options = StartOptions(close="separate", tiles=tiles, format="first-shut")
    with pytest.raises(InvalidRules) as refused:
        options.config(ServerConfig())
    assert refused.value.key == "error.rules.never_ends"
    assert refused.value.params == {"highest": 6, "format": "first-shut"}


@pytest.mark.parametrize("match_format", ["rounds:3", "to-45", "elimination", "long"])
def test_separate_is_played_in_formats_that_end(match_format: str) -> None:
    """Rounds, to-45, elimination and the long game (B can always open the box) all end."""
    config = StartOptions(close="separate", format=match_format).config(ServerConfig())
    assert config.rules.close is CloseRule.SEPARATE


def test_first_shut_is_allowed_where_the_box_can_be_shut() -> None:
    """Every other close rule can shut every box size, so first-shut is offered there."""
    for close in ("any", "sum-or-dice", "dice"):
        for tiles in TILE_COUNTS:
            StartOptions(close=close, tiles=tiles, format="first-shut").config(ServerConfig())
