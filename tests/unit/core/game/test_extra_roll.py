"""One extra-roll rule (source 001, "Kaster du par, får du et ekstra kast"): `Rules.rolls_again`,
and the engine granting exactly the rolls the solver counts on, mask by mask and roll by roll."""

from __future__ import annotations

import pytest

from core.game.actions import Roll
from core.game.ai.solver import outcomes_on_boards, sorted_rolls
from core.game.dice import FixedDice
from core.game.engine import apply
from core.game.events import ExtraRoll, TurnEnded
from core.game.moves import mask_of
from core.game.rules import Rules
from core.game.state import GameState, Phase
from tests.unit.core.game_helpers import begun, config
from tests.unit.core.rule_sets import EVERY_RULE_SET, spread_of_boards

TWELVE_THREE_DICE = Rules(tiles=12, dice=3)
# Each board costs a game engine step per roll: every 7th board of 9 tiles, fewer beyond.
ENGINE_STRIDE = {9: 7, 10: 11, 12: 97}


@pytest.mark.parametrize(
    ("dice", "again"),
    [
        ((2, 2), True),
        ((2, 5), False),
        ((2, 2, 5), True),
        ((5, 2, 5), True),
        ((2, 2, 2), True),
        ((1, 2, 3), False),
        ((4,), False),
    ],
)
def test_a_pair_is_any_two_dice_alike(dice: tuple[int, ...], again: bool) -> None:
    assert TWELVE_THREE_DICE.rolls_again(dice, long_game=True) is again


def long_game(rules: Rules) -> GameState:
    return begun("Ann", "Bob", cfg=config("long", rules))


def test_two_two_five_with_only_tile_one_open_rolls_again() -> None:
    """The issue's case: 12 tiles, 3 dice, only tile 1 open, 2-2-5: Ann rolls once more."""
    state = long_game(TWELVE_THREE_DICE).evolve(board=mask_of([1]))
    after, events = apply(state, Roll("ann", count=3), FixedDice([(2, 2, 5)]))
    assert any(isinstance(event, ExtraRoll) for event in events)
    assert not any(isinstance(event, TurnEnded) for event in events)
    assert after.phase is Phase.ROLL and after.to_act is not None and after.to_act.id == "ann"


def engine_rerolls(state: GameState, count: int, dice: tuple[int, ...]) -> str:
    """What the engine does with this roll: `move`, `again` or `ends`."""
    after, events = apply(state, Roll("ann", count=count), FixedDice([dice]))
    if after.phase is Phase.CHOOSE:
        return "move"
    if any(isinstance(event, ExtraRoll) for event in events):
        assert after.turn == state.turn and after.board == state.board
        return "again"
    assert after.turn != state.turn
    return "ends"


@pytest.mark.parametrize("rules", EVERY_RULE_SET, ids=Rules.to_str)
def test_engine_and_solver_agree_on_every_unusable_roll(rules: Rules) -> None:
    """For every rule set the options table makes, on a spread of boards and for each dice
    count, the engine's stuck rolls and rerolls, weighted by their ways, are the solver's."""
    start = long_game(rules)
    boards = spread_of_boards(rules, ENGINE_STRIDE)
    on_boards = outcomes_on_boards(rules, boards, long_game=True)
    for mask, choices in zip(boards, on_boards, strict=True):
        state = start.evolve(board=mask)
        for count, outcomes in choices:
            stuck = again = 0
            for dice, ways in sorted_rolls(count):
                seen = engine_rerolls(state, count, dice)
                stuck += ways * (seen != "move")
                again += ways * (seen == "again")
            assert (stuck, again) == (outcomes.stuck, outcomes.stuck_again), (mask, count)
