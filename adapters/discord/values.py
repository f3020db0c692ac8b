"""Typed options checked by type before a command runs, and who chips may go to on Discord.

Discord's client only lets a player pick values of an option's type, but the interaction that
reaches the bot is whatever was sent: `amount: 1.5`, `amount: "lots"`, `season: "abc"`, a user
option whose resolved user is missing. discord.py passes such values on unchecked (a fraction
became `int` chips further down; a string raised TypeError). Every option of the `/shutbox`
command is checked here against its registered parameter, and a wrong one gets the same one
private line typed text gets.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

from core.game.numbers import shown
from core.service.features.gifts import Standing
from core.text.i18n import t

Json = dict[str, Any]
WHOLE = AppCommandOptionType.integer
NUMBER = AppCommandOptionType.number
MEMBERS = (AppCommandOptionType.user,)


def standing_of(player: discord.User | discord.Member) -> Standing:
    """A member of this server (Discord resolved them as one), a bot, or someone else."""
    if player.bot or player.system:
        return Standing.BOT
    return Standing.MEMBER if isinstance(player, discord.Member) else Standing.ABSENT


def refusal(tree: app_commands.CommandTree[Any], data: Json, lang: str) -> str | None:
    """One line saying which option of the interaction is not of its type, or None."""
    command, options = _command_and_options(tree, data)
    if command is None:
        return None
    params = {param.display_name: param for param in command.parameters}
    users = (data.get("resolved") or {}).get("users") or {}
    for option in options:
        param = params.get(str(option.get("name")))
        if param is not None:
            key, values = _checked(param, option.get("value"), users)
            if key is not None:
                return t(lang, key, option=param.display_name, **values)
    return None


def _command_and_options(
    tree: app_commands.CommandTree[Any], data: Json
) -> tuple[app_commands.Command[Any, ..., Any] | None, list[Json]]:
    """The subcommand the interaction names and the options given to it."""
    found: Any = tree.get_command(str(data.get("name")))
    options: list[Json] = [o for o in data.get("options") or [] if isinstance(o, dict)]
    while isinstance(found, app_commands.Group):
        sub = next((o for o in options if o.get("type") in (1, 2)), None)
        if sub is None:
            return None, []
        found = found.get_command(str(sub.get("name")))
        options = [o for o in sub.get("options") or [] if isinstance(o, dict)]
    return (found if isinstance(found, app_commands.Command) else None), options


def _checked(param: Any, value: object, users: Json) -> tuple[str | None, dict[str, object]]:
    """The catalog key (and its values) refusing `value` for `param`, or (None, {})."""
    text: dict[str, object] = {"value": shown(str(value))}
    kind = param.type
    if kind is WHOLE or kind is NUMBER:
        number_types: tuple[type, ...] = (int,) if kind is WHOLE else (int, float)
        if isinstance(value, bool) or not isinstance(value, number_types):
            return "error.option.number", text
        low, high = param.min_value, param.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            return "error.option.range", {**text, "min": low, "max": high}
    elif kind is AppCommandOptionType.boolean:
        if not isinstance(value, bool):
            return "error.option.value", text
    elif kind in MEMBERS:
        if not isinstance(value, str | int) or str(value) not in users:
            return "error.option.member", {}
    elif kind is AppCommandOptionType.string and not isinstance(value, str):
        return "error.option.value", text  # a wrong word itself gets the core's own line
    return None, {}
