"""Slash-command options made from the subcommand table, and held to the option table."""

from __future__ import annotations

from collections.abc import Mapping
from unittest.mock import MagicMock

import pytest
from discord import AppCommandOptionType, Locale, app_commands

from adapters.discord.commands import ShutboxCommands
from adapters.discord.interactions import user_lang
from adapters.discord.translator import option_key
from core.game.option import Option
from core.game.options import OPTIONS
from core.service.api.subcommand import Param, Subcommand
from core.service.features.gifts import Recipient
from core.service.model.settings import SETTINGS
from core.service.pipeline.subcommands import SUBCOMMANDS
from core.text.i18n import LANGS, catalog

DESCRIPTION_LIMIT = 100
GROUP_LIMIT = 25  # Discord's limit of subcommands in one group (discord.py refuses a 26th)


def test_a_users_discord_locale_picks_the_catalog() -> None:
    """Danish and Norwegian clients get their language; unknown ones the server's (None)."""
    assert user_lang(Locale.danish) == "da"
    assert user_lang(Locale.norwegian) == "nb"
    assert user_lang(Locale.british_english) == "en"
    assert user_lang(Locale.german) is None


def test_every_subcommand_fits_in_the_one_discord_group() -> None:
    """`/shutbox` is one group: every entry of the table is one of its at most 25 subcommands."""
    group = ShutboxCommands(MagicMock())
    assert len(group.commands) == len(SUBCOMMANDS) <= GROUP_LIMIT


def parameters(command: str) -> dict[str, app_commands.Parameter]:
    group = ShutboxCommands(MagicMock())
    found = next(c for c in group.commands if c.name == command)
    assert isinstance(found, app_commands.Command)
    return {parameter.name: parameter for parameter in found.parameters}


KINDS = {bool: AppCommandOptionType.boolean, int: AppCommandOptionType.integer,
         str: AppCommandOptionType.string, Recipient: AppCommandOptionType.user}  # fmt: skip


def held_to(parameter: app_commands.Parameter, param: Param) -> None:
    assert parameter.type is KINDS[param.kind], param
    assert parameter.required is param.required, param
    assert [choice.value for choice in parameter.choices] == [
        value if isinstance(value, int) else str(value) for value in param.values
    ], param
    if param.bounds is not None:
        assert (parameter.min_value, parameter.max_value) == param.bounds, param


@pytest.mark.parametrize("entry", SUBCOMMANDS, ids=lambda entry: entry.name)
def test_every_table_entry_is_a_subcommand_with_its_typed_options(entry: Subcommand) -> None:
    """Each entry of the subcommand table is registered with exactly its typed options: their
    types (a member picker for a player), whether they are required, choices and ranges."""
    given = parameters(entry.name)
    assert set(given) == {param.name for param in entry.params}
    for param in entry.params:
        held_to(given[param.name], param)


TABLES: dict[str, Mapping[str, Option]] = {
    "start": OPTIONS,
    "solo": {name: option for name, option in OPTIONS.items() if name != "stakes"},
    "config": SETTINGS,
}


@pytest.mark.parametrize("command", list(TABLES))
def test_the_made_parameters_are_the_option_table(command: str) -> None:
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
