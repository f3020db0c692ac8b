"""Slash-command names and descriptions in Danish and Norwegian, read from the core catalogs.

Every translatable string is a `locale_str` whose English text comes from
`core/text/locales/en.json`
and whose `key` extra names the catalog entry; the translator looks that key up for Discord's
`da` and `no` locales when the commands are synced.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextTypes, locale_str

from core.game.options import OPTIONS
from core.text.i18n import catalog, t

CATALOG_LANGS: dict[Locale, str] = {Locale.danish: "da", Locale.norwegian: "nb"}


def text(key: str) -> locale_str:
    """A catalog text as discord.py wants it: English now, other languages at sync time."""
    return locale_str(t("en", key), key=key)


def option_key(command: str, option: str, part: str) -> str:
    """The catalog key of an option's name or description; a command may word its own, and a
    game option is described by its help text in the option table."""
    own = f"discord.{command}.{option}.{part}"
    if own in catalog("en"):
        return own
    if part == "description" and option in OPTIONS:
        return OPTIONS[option].help_key
    return f"discord.option.{option}.{part}"


class CatalogTranslator(app_commands.Translator):
    """Looks up each `locale_str`'s catalog key in the language of the requested locale."""

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        key = string.extras.get("key")
        lang = CATALOG_LANGS.get(locale)
        if key is None or lang is None:
            return None
        return catalog(lang).get(key)
