"""The typed options of `/shutbox`: catalog names and descriptions, choices, and ranges."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from discord import app_commands
from discord.app_commands import Choice

from adapters.discord.translator import option_key, text
from core.game.match import MAX_ROUNDS, TIMER_RANGE, FormatKind
from core.game.numbers import MAX_AMOUNT
from core.game.rules import PRESETS, TILE_COUNTS, CloseRule, Scoring
from core.service.economy import BOARDS
from core.service.seasons import MAX_SEASON
from core.service.settings import MAX_SEASON_DAYS

T = TypeVar("T")

ROUNDS_MAX = MAX_ROUNDS
TIMER_MIN, TIMER_MAX = TIMER_RANGE
GRANT_LIMIT = MAX_AMOUNT
CHIPS_LIMIT = MAX_AMOUNT  # the largest start or daily amount a server may set
PLAYERS_MAX = 10
SEASON_MAX = MAX_SEASON
SEASON_DAYS_MAX = MAX_SEASON_DAYS

RULES_OPTIONS = ("preset", "tiles", "dice", "close", "last_die", "hard", "scoring")
MATCH_OPTIONS = ("format", "rounds", "timer", "hints", "fair")


def _named(option: str, values: list[str]) -> list[Choice[str]]:
    return [Choice(name=text(f"discord.choice.{option}.{value}"), value=value) for value in values]


CHOICES: dict[str, list[Choice[str]] | list[Choice[int]]] = {
    "preset": _named("preset", list(PRESETS)),
    "close": _named("close", [rule.value for rule in CloseRule]),
    "scoring": _named("scoring", [scoring.value for scoring in Scoring]),
    "format": _named("format", [kind.value for kind in FormatKind]),
    "board": _named("board", list(BOARDS)),
    "style": _named("style", ["emoji", "text"]),
    "action": _named("action", ["end"]),
    "lang": [Choice(name="English", value="en"), Choice(name="Dansk", value="da"),
             Choice(name="Norsk bokmål", value="nb")],
    "tiles": [Choice(name=str(tiles), value=tiles) for tiles in TILE_COUNTS],
    "dice": [Choice(name="2", value=2), Choice(name="3", value=3)],
}  # fmt: skip


def localized(command: str, *options: str) -> Callable[[T], T]:
    """Catalog names and descriptions (and any choices) for the options of one subcommand."""

    def decorate(func: T) -> T:
        names = {option: text(option_key(command, option, "name")) for option in options}
        descriptions = {
            option: text(option_key(command, option, "description")) for option in options
        }
        func = app_commands.rename(**names)(func)
        func = app_commands.describe(**descriptions)(func)
        choices = {option: CHOICES[option] for option in options if option in CHOICES}
        return app_commands.choices(**choices)(func) if choices else func  # type: ignore[misc]

    return decorate


def subcommand(name: str) -> Callable[[T], T]:
    """A `/shutbox` subcommand named and described from the catalogs."""
    return app_commands.command(  # type: ignore[return-value]
        name=text(f"discord.command.{name}.name"),
        description=text(f"discord.command.{name}.description"),
    )


def match_format(kind: str | None, rounds: int | None) -> str | None:
    """`format` and `rounds` as the manager reads them (`rounds:5`); the manager checks the mix."""
    if rounds is None:
        return kind
    return f"{kind or FormatKind.ROUNDS.value}:{rounds}"


def setting_text(value: object) -> str:
    """A `/shutbox config` value as the manager's `key=value` settings take it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
