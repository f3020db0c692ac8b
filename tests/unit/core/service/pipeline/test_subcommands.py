"""Typed options (Discord's) made into the commands of the subcommand table."""

from __future__ import annotations

from core.service.model.settings import StartOptions
from core.service.pipeline.subcommands import setting_text, start_options


def test_rounds_make_a_rounds_format() -> None:
    """`rounds: 5` alone means five fixed rounds; with another format the manager says no."""
    assert start_options({}) == StartOptions()
    assert start_options({"rounds": 5}).format == "rounds:5"
    assert start_options({"format": "to-45"}).format == "to-45"
    assert start_options({"format": "to-45", "rounds": 3}).format == "to-45:3"
    assert start_options({"tiles": 10, "hints": True}) == StartOptions(tiles=10, hints=True)


def test_settings_are_passed_as_text() -> None:
    """`/shutbox config` values reach the manager as its `key=value` texts."""
    assert setting_text(True) == "yes" and setting_text(False) == "no" and setting_text(30) == "30"
