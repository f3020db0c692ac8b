"""The playground's own texts, from the catalogs in the table's language.

The `start` keys and the leaderboards are read from the option table and the board list.
"""

from __future__ import annotations

from core.game.options import OPTIONS
from core.text.i18n import t

START_KEYS = ", ".join(option.typed for option in OPTIONS.values())

NEWCOMER_COMMANDS = ("start", "bot", "go")  # what the welcome tells a newcomer to type
# Subcommands with a usage line of their own; the others take no options.
USAGES = ("leaderboard", "season", "web", "rules", "odds", "config", "grant", "give")


def welcome(lang: str, name: str) -> str:
    return t(lang, "playground.welcome", name=name)


def commands_help(lang: str) -> str:
    """What the playground adds under the chat's `help` (which lists the subcommands once)."""
    return t(lang, "playground.help", keys=START_KEYS)


def usage(lang: str, command: str, value: object) -> str:
    """The line that shows how `command` is typed; `value` is the word that did not fit."""
    if command in ("start", "solo"):
        return t(lang, "playground.usage.start", value=value)
    if command in USAGES:
        return t(lang, f"playground.usage.{command}", value=value)
    return t(lang, "playground.usage.plain", command=command, value=value)


def prompt(lang: str, seated: str, acting: str | None, host: str | None) -> str:
    """The prompt: who is at the keyboard, and whose turn or lobby a button then plays."""
    if acting and acting != seated:
        return t(lang, "playground.prompt_acting", seated=seated, player=acting) + "> "
    if host and host != seated:
        return t(lang, "playground.prompt_host", seated=seated, host=host) + "> "
    return f"{seated}> "
