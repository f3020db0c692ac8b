"""The option table: every rule and match option once, found by name as people type it."""

from __future__ import annotations

from core.game.match import MATCH_OPTIONS
from core.game.options import OPTIONS, find_option
from core.game.rules import RULE_OPTIONS


def test_options_are_found_as_typed() -> None:
    """`last-die`, `last_die` and `LAST_DIE` are one option; `rounds` fills in the format."""
    assert find_option("last-die") is find_option("LAST_DIE") is OPTIONS["last_die"]
    assert find_option("colour") is None
    rounds = OPTIONS["rounds"]
    assert rounds.into == "format" and rounds.read("5", "rounds") == "rounds:5"


def test_the_table_is_whole() -> None:
    """Names are unique; every on/off rule but `hard` (always written, as `1d` or `hard`) has
    its own code in the rules' text form; every option has a help text key."""
    assert len(OPTIONS) == len(RULE_OPTIONS) + len(MATCH_OPTIONS)
    flags = [option for option in RULE_OPTIONS if option.kind is bool and option.name != "hard"]
    codes = [flag.code for flag in flags]
    assert all(codes) and len(set(codes)) == len(codes)
    assert all(option.help_key == f"option.{option.name}.help" for option in OPTIONS.values())
