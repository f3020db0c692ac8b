"""The typed options of `/shutbox`: catalog names and descriptions, choices, and ranges.

The parameters themselves are written out in `commands.py` (discord.py reads them from the
signatures); the game's option table gives their choices here, and a test holds the names and
ranges to the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from discord import app_commands
from discord.app_commands import Choice

from adapters.discord.translator import option_key, text
from core.game.match import MATCH_OPTIONS as GAME_MATCH_OPTIONS
from core.game.match import MAX_ROUNDS, TIMER_RANGE, FormatKind
from core.game.numbers import MAX_AMOUNT
from core.game.option import Option
from core.game.options import OPTIONS
from core.game.rules import RULE_OPTIONS
from core.service.features.economy import BOARD_NAMES
from core.service.features.seasons import MAX_SEASON
from core.service.model.settings import MAX_PLAYERS_ALLOWED, MAX_SEASON_DAYS, SETTINGS

T = TypeVar("T")

ROUNDS_MAX = MAX_ROUNDS
TIMER_MIN, TIMER_MAX = TIMER_RANGE
GRANT_LIMIT = MAX_AMOUNT
CHIPS_LIMIT = MAX_AMOUNT  # the largest start or daily amount a server may set
PLAYERS_MAX = MAX_PLAYERS_ALLOWED
SEASON_MAX = MAX_SEASON
SEASON_DAYS_MAX = MAX_SEASON_DAYS

RULES_OPTIONS = tuple(option.name for option in RULE_OPTIONS)
# Solo games carry no stakes: `start` adds the option itself.
MATCH_OPTIONS = tuple(option.name for option in GAME_MATCH_OPTIONS if option.name != "stakes")


def _named(option: str, values: list[str]) -> list[Choice[str]]:
    return [Choice(name=text(f"discord.choice.{option}.{value}"), value=value) for value in values]


def _choices(option: Option) -> list[Choice[str]] | list[Choice[int]]:
    """A table option's choices: numbers as they are, words with a catalog label each."""
    numbers = [value for value in option.values if type(value) is int]
    if numbers:
        return [Choice(name=str(number), value=number) for number in numbers]
    return _named(option.name, [str(value) for value in option.values])


CHOICES: dict[str, list[Choice[str]] | list[Choice[int]]] = {
    **{option.name: _choices(option) for option in OPTIONS.values() if option.values},
    "board": _named("board", list(BOARD_NAMES)),
    "style": _named("style", [str(style) for style in SETTINGS["style"].values]),
    "action": _named("action", ["end"]),
    "switch": _named("switch", ["on", "off", "rotate"]),
    "lang": [Choice(name="English", value="en"), Choice(name="Dansk", value="da"),
             Choice(name="Norsk bokmål", value="nb")],
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
