"""Rules are one frozen value: presets, single options, and refusals that say why (SPEC 1-2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.game.errors import InvalidOption, InvalidRules
from core.game.match import MatchConfig, MatchFormat, Stakes, StakesKind
from core.game.rules import (
    PRESETS,
    CloseRule,
    Rules,
    Scoring,
    build_rules,
    flags_on,
    preset,
)

rules_values = st.builds(
    Rules,
    tiles=st.sampled_from((9, 10, 12)),
    close=st.sampled_from(list(CloseRule)),
    one_die=st.booleans(),
    scoring=st.sampled_from(list(Scoring)),
)


def test_presets_are_what_the_spec_names() -> None:
    """classic, hard, sailors, kids, missionary, ten and twelve are the SPEC's presets."""
    assert preset("classic") == Rules()
    assert preset("hard") == Rules(one_die=False)
    assert preset("sailors").close is CloseRule.SUM_OR_DICE
    assert preset("kids").close is CloseRule.DICE
    assert preset("missionary").scoring is Scoring.COUNT
    assert (preset("ten").tiles, preset("twelve").tiles) == (10, 12)


def test_an_unknown_preset_lists_the_known_ones() -> None:
    """An unknown preset is refused with the list of presets."""
    with pytest.raises(InvalidRules) as error:
        preset("yahtzee")
    assert error.value.params["allowed"] == ", ".join(PRESETS)


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"tiles": 11}, "error.rules.tiles"),
        ({"dice": 3}, "error.rules.three_dice"),
        ({"tiles": 12, "dice": 3, "close": "dice"}, "error.rules.three_dice_close"),
        ({"last_die": True}, "error.rules.last_die"),
        ({"close": "diagonal"}, "error.rules.choice"),
    ],
)
def test_combinations_that_make_no_sense_are_refused(options: dict[str, object], key: str) -> None:
    """Nonsense combinations are refused with a message key that says why."""
    with pytest.raises(InvalidRules) as error:
        build_rules(**options)  # type: ignore[arg-type]
    assert error.value.key == key


def test_single_options_lay_over_a_preset() -> None:
    """`sailors` with the last-die option and count scoring."""
    rules = build_rules("sailors", last_die=True, scoring="count")
    assert rules == Rules(close=CloseRule.SUM_OR_DICE, last_die=True, scoring=Scoring.COUNT)


def test_every_rule_option_reaches_its_field() -> None:
    """Each rule option changes the rules (`hard` turns the one-die rule off); None is left out."""
    assert build_rules(tiles=12, dice=3) == Rules(tiles=12, dice=3)
    assert build_rules(close=" Sum-Or-Dice ", last_die=True).last_die
    assert build_rules("classic", hard=True) == PRESETS["hard"]
    assert build_rules("hard", hard=False) == PRESETS["classic"]
    assert build_rules("kids", tiles=None, hard=None) == PRESETS["kids"]
    for not_a_rule in ({"timer": 30}, {"preset": "kids"}):
        with pytest.raises(TypeError):
            build_rules(**not_a_rule)  # type: ignore[arg-type]


def test_a_choice_outside_the_table_names_what_is_allowed() -> None:
    """`close=diagonal` is refused with the close rules the table holds."""
    with pytest.raises(InvalidRules) as error:
        build_rules(close="diagonal")
    assert error.value.key == "error.rules.choice"
    assert error.value.params["allowed"] == "any, sum-or-dice, dice, separate"


def test_flags_on_are_the_on_off_rules_switched_on() -> None:
    """Classic switches none on; hard is the one-die rule off; the last-die rule is itself."""
    assert flags_on(PRESETS["classic"]) == ()
    assert [flag.name for flag in flags_on(PRESETS["hard"])] == ["hard"]
    sailors = build_rules("sailors", last_die=True, hard=True)
    assert [flag.name for flag in flags_on(sailors)] == ["last_die", "hard"]
    assert Rules.from_str(sailors.to_str()) == sailors and ".ld." in sailors.to_str()


@given(rules_values)
def test_text_form_round_trips(rules: Rules) -> None:
    """`Rules.from_str(r.to_str()) == r` for every rule set."""
    assert Rules.from_str(rules.to_str()) == rules


def test_broken_text_is_refused() -> None:
    """A stored rules text with junk in it does not parse."""
    for text in ("t9.d2.any.junk.1d.sum", "t9.d2", "x9.d2.any.1d.sum", ""):
        with pytest.raises(InvalidRules):
            Rules.from_str(text)


def test_scores_are_golf_or_missionary() -> None:
    """Open 2, 3 and 5 score 10 (sum) or 3 (count); a shut box scores 0."""
    open_tiles = 0b10110
    assert Rules().score(open_tiles) == 10
    assert Rules(scoring=Scoring.COUNT).score(open_tiles) == 3
    assert Rules().score(0) == 0 and Rules().max_score == 45


def test_formats_and_stakes_parse_and_refuse() -> None:
    """`rounds:5`, `to-45`, `pot:5`, `canoga:2` parse; 0 rounds or a negative ante do not."""
    assert MatchFormat.parse("rounds:5").rounds == 5
    assert MatchFormat.parse("5") == MatchFormat.parse("rounds:5")
    assert Stakes.parse("canoga") == Stakes(StakesKind.CANOGA, 1)
    assert Stakes.parse("pot:5").amount == 5
    for bad in ("rounds:0", "rounds:abc", "best-of-3"):
        with pytest.raises(InvalidOption):
            MatchFormat.parse(bad)
    for bad in ("pot:-5", "pot:0", "pot", "bet:5"):
        with pytest.raises(InvalidOption):
            Stakes.parse(bad)
    with pytest.raises(InvalidOption):
        MatchConfig(format=MatchFormat.parse("long"), stakes=Stakes.parse("canoga"))
