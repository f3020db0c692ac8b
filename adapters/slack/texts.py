"""What `/shutbox help` adds for Slack: every `key=value` option and setting, with its values.

The values are what a user types (`preset=sailors`), the same in every language; the sentence
around them comes from the catalogs (`slack.help`).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from core.game.match import FormatKind
from core.game.rules import PRESETS, TILE_COUNTS, CloseRule, Scoring
from core.service.settings import MAX_PLAYERS_ALLOWED, MAX_SEASON_DAYS
from core.text.i18n import LANGS, t

YES_NO = "yes|no"


def _choices(values: Iterable[object]) -> str:
    return "|".join(str(v.value) if isinstance(v, Enum) else str(v) for v in values)


def start_options() -> dict[str, str]:
    """`/shutbox start` keys and the values each allows."""
    formats = "|".join("rounds:N" if k is FormatKind.ROUNDS else k.value for k in FormatKind)
    return {
        "preset": _choices(PRESETS), "tiles": _choices(TILE_COUNTS), "dice": "2|3",
        "close": _choices(CloseRule), "last-die": YES_NO, "hard": YES_NO,
        "scoring": _choices(Scoring), "rounds": "N", "format": formats,
        "stakes": "none|pot:A|canoga[:K]", "timer": "10-3600", "hints": YES_NO, "fair": YES_NO,
    }  # fmt: skip


def settings() -> dict[str, str]:
    """`/shutbox config` keys and the values each allows."""
    return {
        "lang": _choices(LANGS), "style": "emoji|text", "preset": _choices(PRESETS),
        "start_chips": "N", "daily": "N", "timer": "10-3600",
        "max_players": f"1-{MAX_PLAYERS_ALLOWED}", "fair": YES_NO,
        "season_days": f"0-{MAX_SEASON_DAYS}",
    }  # fmt: skip


def options_help(lang: str) -> str:
    """The Slack part of `/shutbox help` in `lang`."""
    listing = ", ".join(f"`{key}={values}`" for key, values in start_options().items())
    config = ", ".join(f"`{key}={values}`" for key, values in settings().items())
    return t(lang, "slack.help", options=listing, settings=config)
