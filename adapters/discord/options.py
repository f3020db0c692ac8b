"""A subcommand's typed options as discord.py reads them: a signature, catalog texts, choices.

discord.py reads a command's options from its callback's signature. A `/shutbox` subcommand's
callback is made from its entry in the subcommand table (core/service/pipeline/subcommands.py),
so its signature is made here from the entry's `params`: each annotated with the type Discord
shows (a member picker for a `Recipient`, a bounded number for a number with bounds), the
optional ones defaulting to None; then named, described and given choices from the catalogs.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Optional, TypeVar

import discord
from discord import app_commands
from discord.app_commands import Choice, Range

from adapters.discord.translator import option_key, text
from core.game.option import Value
from core.service.api.subcommand import Param
from core.service.features.gifts import Recipient

F = TypeVar("F", bound=Callable[..., Any])
Choices = list[Choice[str]] | list[Choice[int]]

# A language is offered in its own name, the same in every client's language.
OWN_NAMES = {"en": "English", "da": "Dansk", "nb": "Norsk bokmål"}
OWN_NAMED = "lang"


def annotation(param: Param) -> Any:
    """The type discord.py registers the option as (an optional one may be None)."""
    kind: Any = param.kind
    if param.kind is Recipient:
        kind = discord.User
    elif param.bounds is not None:
        low, high = param.bounds
        kind = Range[int, low, high]
    return kind if param.required else Optional[kind]  # noqa: UP045 (a runtime value)


def signature(params: Sequence[Param]) -> inspect.Signature:
    """A callback's signature taking the interaction, then each option by name."""
    first = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    options = [
        inspect.Parameter(
            param.name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=annotation(param),
            default=inspect.Parameter.empty if param.required else None,
        )
        for param in params
    ]
    return inspect.Signature([first, *options])


def choices(param: Param) -> Choices:
    """A param's values as choices: numbers as they are, words with a catalog label each."""
    numbers = [value for value in param.values if type(value) is int]
    if numbers:
        return [Choice(name=str(number), value=number) for number in numbers]
    return [Choice(name=_label(param.name, value), value=str(value)) for value in param.values]


def _label(option: str, value: Value) -> str | app_commands.locale_str:
    if option == OWN_NAMED:
        return OWN_NAMES[str(value)]
    return text(f"discord.choice.{option}.{value}")


def typed(command: str, params: Sequence[Param], callback: F) -> F:
    """`callback` (taking the interaction and keyword options) with the signature of `params`,
    and their catalog names and descriptions (and any choices) for subcommand `command`."""
    callback.__signature__ = signature(params)  # type: ignore[attr-defined]
    if not params:
        return callback
    names = {param.name: text(option_key(command, param.name, "name")) for param in params}
    descriptions = {
        param.name: text(option_key(command, param.name, "description")) for param in params
    }
    callback = app_commands.rename(**names)(callback)
    callback = app_commands.describe(**descriptions)(callback)
    chosen = {param.name: choices(param) for param in params if param.values}
    return app_commands.choices(**chosen)(callback) if chosen else callback  # type: ignore[misc]
