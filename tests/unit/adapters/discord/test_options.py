"""Slash-command options translated into what the manager takes."""

from __future__ import annotations

from discord import Locale

from adapters.discord.interactions import user_lang
from adapters.discord.options import match_format, setting_text


def test_rounds_make_a_rounds_format() -> None:
    """`rounds:5` alone means five fixed rounds; with another format the manager says no."""
    assert match_format(None, None) is None
    assert match_format(None, 5) == "rounds:5"
    assert match_format("to-45", None) == "to-45"
    assert match_format("to-45", 3) == "to-45:3"


def test_settings_are_passed_as_text() -> None:
    """`/shutbox config` values reach the manager as its `key=value` texts."""
    assert setting_text(True) == "yes" and setting_text(False) == "no" and setting_text(30) == "30"


def test_a_users_discord_locale_picks_the_catalog() -> None:
    """Danish and Norwegian clients get their language; unknown ones the server's (None)."""
    assert user_lang(Locale.danish) == "da"
    assert user_lang(Locale.norwegian) == "nb"
    assert user_lang(Locale.british_english) == "en"
    assert user_lang(Locale.german) is None
