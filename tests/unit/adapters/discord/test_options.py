"""Slash-command options translated into what the manager takes, and held to the option table."""

from __future__ import annotations

from collections.abc import Mapping
from unittest.mock import MagicMock

import pytest
from discord import AppCommandOptionType, Locale, app_commands

from adapters.discord.commands import ShutboxCommands
from adapters.discord.interactions import user_lang
from adapters.discord.options import match_format, setting_text
from adapters.discord.translator import option_key
from core.game.option import Option
from core.game.options import OPTIONS
from core.service.model.settings import SETTINGS
from core.text.i18n import LANGS, catalog

DESCRIPTION_LIMIT = 100


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


def parameters(command: str) -> dict[str, app_commands.Parameter]:
    group = ShutboxCommands(MagicMock())
    found = next(c for c in group.commands if c.name == command)
    assert isinstance(found, app_commands.Command)
    return {parameter.name: parameter for parameter in found.parameters}


KINDS = {bool: AppCommandOptionType.boolean, int: AppCommandOptionType.integer,
         str: AppCommandOptionType.string}  # fmt: skip
TABLES: dict[str, Mapping[str, Option]] = {
    "start": OPTIONS,
    "solo": {name: option for name, option in OPTIONS.items() if name != "stakes"},
    "config": SETTINGS,
}


@pytest.mark.parametrize("command", list(TABLES))
def test_the_written_out_parameters_are_the_option_table(command: str) -> None:
    """`start`, `solo` (no stakes: solo games carry none) and `config` take exactly the table's
    options, each with its type, its choices in the table's order, and its range."""
    table, given = TABLES[command], parameters(command)
    assert set(given) == set(table)
    for name, option in table.items():
        parameter = given[name]
        assert parameter.type is KINDS[option.kind], name
        values = [value if isinstance(value, int) else str(value) for value in option.values]
        assert [choice.value for choice in parameter.choices] == values, name
        if option.kind is int and not option.values:
            assert (parameter.min_value, parameter.max_value) == option.range, name


def test_the_table_describes_each_option_within_discords_limit() -> None:
    """A game option's description is its help text in the table, short enough for Discord;
    its name on Discord is in the catalogs too."""
    assert option_key("start", "last_die", "description") == "option.last_die.help"
    assert option_key("config", "timer", "description") == "discord.config.timer.description"
    for lang in LANGS:
        for option in OPTIONS.values():
            assert 1 <= len(catalog(lang)[option.help_key]) <= DESCRIPTION_LIMIT, (lang, option)
            assert option_key("start", option.name, "name") in catalog(lang), (lang, option)
