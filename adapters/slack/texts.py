"""What `/shutbox help` adds for Slack: every `key=value` option and setting, with its values.

The keys and values are read from the option tables (`core/game/options.py` for `start` and
`solo`, the server's `SETTINGS` for `config`) and are what a user types (`preset=sailors`), the
same in every language; the sentence around them comes from the catalogs (`slack.help`).
"""

from __future__ import annotations

from core.game.options import OPTIONS
from core.service.model.settings import SETTINGS
from core.text.i18n import t


def start_options() -> dict[str, str]:
    """`/shutbox start` keys and the values each allows."""
    return {option.typed: "|".join(option.listed()) for option in OPTIONS.values()}


def settings() -> dict[str, str]:
    """`/shutbox config` keys and the values each allows (typed with underscores)."""
    return {option.name: "|".join(option.listed()) for option in SETTINGS.values()}


def options_help(lang: str) -> str:
    """The Slack part of `/shutbox help` in `lang`."""
    listing = ", ".join(f"`{key}={values}`" for key, values in start_options().items())
    config = ", ".join(f"`{key}={values}`" for key, values in settings().items())
    return t(lang, "slack.help", options=listing, settings=config)
