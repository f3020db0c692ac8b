"""One option: its typed values read by kind, and its values as help lists them."""

from __future__ import annotations

import pytest

from core.game.errors import InvalidOption
from core.game.option import parse_bool
from core.game.options import OPTIONS


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
