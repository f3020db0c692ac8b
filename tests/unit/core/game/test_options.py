"""The option table: every option found by name, the rules built from it, its values read."""

from __future__ import annotations

import pytest

from core.game.errors import InvalidOption, InvalidRules
from core.game.options import (
    MATCH_OPTIONS,
    OPTIONS,
    RULE_OPTIONS,
    build_rules,
    find_option,
    flags_on,
    parse_bool,
)
from core.game.rules import FLAG_CODES, PRESETS, CloseRule, Rules, Scoring


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
    with pytest.raises(TypeError):
        build_rules(timer=30)


def test_a_choice_outside_the_table_names_what_is_allowed() -> None:
    """`close=diagonal` is refused with the close rules the table holds."""
    with pytest.raises(InvalidRules) as error:
        build_rules(close="diagonal")
    assert error.value.key == "error.rules.choice"
    assert error.value.params["allowed"] == "any, sum-or-dice, dice, separate"


def test_options_are_found_as_typed() -> None:
    """`last-die`, `last_die` and `Last-Die` are one option; `rounds` fills in the format."""
    assert find_option("last-die") is find_option("LAST_DIE") is OPTIONS["last_die"]
    assert find_option("colour") is None
    rounds = OPTIONS["rounds"]
    assert rounds.into == "format" and rounds.read("5", "rounds") == "rounds:5"


def test_typed_values_are_read_by_kind() -> None:
    """Yes/no in three languages, numbers in their range; choices wait for the builder."""
    assert OPTIONS["hints"].read("nej", "hints") is False
    assert OPTIONS["tiles"].read("12", "tiles") == 12
    assert OPTIONS["close"].read("diagonal", "close") == "diagonal"
    with pytest.raises(InvalidOption) as error:
        OPTIONS["timer"].read("5", "Timer")
    assert error.value.params == {"option": "Timer", "value": "5", "min": 10, "max": 3600}
    assert parse_bool("Ja") and not parse_bool("off")


def test_help_lists_each_options_values() -> None:
    """What help shows after `key=`: the choices, yes/no, a range, or the option's own forms."""
    listed = {option.typed: "|".join(option.listed()) for option in OPTIONS.values()}
    assert listed["preset"] == "classic|hard|sailors|kids|missionary|ten|twelve"
    assert listed["tiles"] == "9|10|12" and listed["last-die"] == "yes|no"
    assert listed["timer"] == "10-3600" and listed["rounds"] == "N"
    assert listed["format"] == "rounds:N|to-45|elimination|first-shut|long"
    assert listed["stakes"] == "none|pot:A|canoga[:K]"


def test_flags_on_are_the_on_off_rules_switched_on() -> None:
    """Classic switches none on; hard is the one-die rule off; the last-die rule is itself."""
    assert flags_on(PRESETS["classic"]) == ()
    assert [flag.name for flag in flags_on(PRESETS["hard"])] == ["hard"]
    sailors = build_rules("sailors", last_die=True, hard=True)
    assert [flag.name for flag in flags_on(sailors)] == ["last_die", "hard"]


def test_the_table_is_whole() -> None:
    """Names are unique, every on/off rule but `hard` has a code in the rules' text form, and
    every option has a help text."""
    assert len(OPTIONS) == len(RULE_OPTIONS) + len(MATCH_OPTIONS)
    flags = {option.name for option in RULE_OPTIONS if option.kind is bool} - {"hard"}
    assert flags == set(FLAG_CODES)
    assert all(option.help_key == f"option.{option.name}.help" for option in OPTIONS.values())
