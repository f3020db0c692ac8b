"""Slash-command texts in the catalogs: valid Discord names, short descriptions, translations."""

from __future__ import annotations

import asyncio
import re
from unittest.mock import MagicMock

import discord
import pytest
from discord import Locale, app_commands

from adapters.discord.commands import ShutboxCommands
from adapters.discord.translator import CatalogTranslator, option_key, text
from core.text.i18n import LANGS, catalog

# Discord's rule for CHAT_INPUT command and option names (lowercase where a letter has a case)
NAME = re.compile(r"^[-_\w]{1,32}$")
DESCRIPTION_LIMIT = 100
CHOICE_LIMIT = 100
COMMAND_SIZE_LIMIT = 8000  # name + description + value characters, longest locale each
# Our own budget, a thousand characters under Discord's limit: room for new subcommands.
COMMAND_SIZE_BUDGET = 7000


def discord_keys(lang: str) -> dict[str, str]:
    return {key: value for key, value in catalog(lang).items() if key.startswith("discord.")}


@pytest.mark.parametrize("lang", LANGS)
def test_every_command_and_option_name_is_a_valid_discord_name(lang: str) -> None:
    """Names are 1-32 word characters or dashes, all lowercase: no spaces, no capitals."""
    for key, name in discord_keys(lang).items():
        if key.endswith(".name"):
            assert NAME.match(name) and name == name.lower(), (lang, key, name)


@pytest.mark.parametrize("lang", LANGS)
def test_descriptions_and_choices_fit_discord_limits(lang: str) -> None:
    """Descriptions and choice names are 1-100 characters."""
    for key, value in discord_keys(lang).items():
        if key.endswith(".description"):
            assert 1 <= len(value) <= DESCRIPTION_LIMIT, (lang, key)
        if key.startswith("discord.choice."):
            assert 1 <= len(value) <= CHOICE_LIMIT, (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_names_are_unique_within_a_command(lang: str) -> None:
    """Two subcommands never share a localized name."""
    names = [v for k, v in discord_keys(lang).items() if k.startswith("discord.command.")
             and k.endswith(".name")]  # fmt: skip
    assert len(names) == len(set(names)), lang


def translate(key: str, locale: Locale) -> str | None:
    return asyncio.run(CatalogTranslator().translate(text(key), locale, MagicMock()))


def test_the_translator_reads_danish_and_norwegian_from_the_catalogs() -> None:
    """Discord's `da` gets Danish, `no` gets Norwegian Bokmål, any other locale the default."""
    assert translate("discord.command.join.name", Locale.danish) == "deltag"
    assert translate("discord.command.join.name", Locale.norwegian) == "bli-med"
    assert translate("discord.command.join.name", Locale.german) is None
    assert asyncio.run(CatalogTranslator().translate(
        app_commands.locale_str("shutbox"), Locale.danish, MagicMock())) is None  # fmt: skip


def test_a_command_may_word_its_own_option_description() -> None:
    """`stats` describes its player option itself; `grant` too; others share the default."""
    assert option_key("stats", "player", "description") == "discord.stats.player.description"
    assert option_key("balance", "preset", "name") == "discord.option.preset.name"


def _size(node: dict[str, object]) -> int:
    total = 0
    for field in ("name", "description", "value"):
        if field in node:
            localized = node.get(f"{field}_localizations") or {}
            assert isinstance(localized, dict)
            total += max(len(str(v)) for v in [node[field], *localized.values()])
    for key in ("options", "choices"):
        children = node.get(key) or []
        assert isinstance(children, list)
        total += sum(_size(child) for child in children)
    return total


async def test_the_command_payload_stays_within_its_budget() -> None:
    """The whole `/shutbox` group, counted as Discord counts it, stays within 7000 characters,
    well under Discord's 8000."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    tree.add_command(ShutboxCommands(MagicMock()))
    await tree.set_translator(CatalogTranslator())
    payload = await tree.get_commands()[0].get_translated_payload(tree, CatalogTranslator())
    assert _size(payload) <= COMMAND_SIZE_BUDGET < COMMAND_SIZE_LIMIT


def test_the_commands_page_states_the_budget_the_test_holds() -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parents[4] / "docs" / "play" / "commands.md").read_text()
    budget, limit = f"{COMMAND_SIZE_BUDGET:,}", f"{COMMAND_SIZE_LIMIT:,}"
    stated = f"within {budget} characters of the {limit} Discord allows"
    assert stated in " ".join(page.split())
