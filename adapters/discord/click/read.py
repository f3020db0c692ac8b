"""A click on one of our buttons read from the interaction's JSON: its custom id (the core's
command) and who pressed it where, as `interactions.context_for` reads them from discord.py's
objects (tests/unit/adapters/discord/test_click.py holds the two equal)."""

from __future__ import annotations

from typing import Any

from adapters.discord.interactions import PLATFORM, lang_of
from core.game.numbers import is_digits
from core.service.model.buttons import PREFIX
from core.service.model.commit import Scope
from core.service.model.context import Context

Json = dict[str, Any]
COMPONENT, BUTTON = 3, 2
MANAGE_GUILD = 1 << 5  # the permission that makes a member the server's admin here


def game_click(interaction: Json) -> str | None:
    """The custom id of a click on one of our buttons, or None for any other interaction."""
    data, message = interaction.get("data"), interaction.get("message")
    if interaction.get("type") != COMPONENT or not isinstance(data, dict):
        return None
    custom_id = data.get("custom_id")
    if data.get("component_type") != BUTTON or not isinstance(custom_id, str):
        return None
    if not custom_id.startswith(f"{PREFIX}:") or not isinstance(message, dict):
        return None
    return custom_id if is_digits(str(message.get("id"))) else None


def context_of(interaction: Json) -> Context | None:
    """Who acts where, as `interactions.context_for` reads it from discord.py's objects; None
    when the JSON names nobody (discord.py's own path then answers it)."""
    guild, member = interaction.get("guild_id"), interaction.get("member")
    user = member.get("user") if isinstance(member, dict) else interaction.get("user")
    if not isinstance(user, dict) or not is_digits(str(user.get("id"))):
        return None
    user_id, direct = str(user["id"]), not guild
    nick = member.get("nick") if isinstance(member, dict) else None
    rights = str(member.get("permissions")) if isinstance(member, dict) else ""
    admin = not direct and is_digits(rights) and bool(int(rights) & MANAGE_GUILD)
    channel = (interaction.get("channel") or {}).get("id") or interaction.get("channel_id")
    return Context(
        scope=Scope(PLATFORM, f"dm-{user_id}" if direct else str(guild)),
        channel=str(channel or user_id),
        user=user_id,
        name=str(nick or user.get("global_name") or user.get("username") or ""),
        locale=lang_of(str(interaction.get("locale") or "en-US")),
        admin=admin,
        request_id=str(interaction["id"]),
        direct=direct,
        mentions=True,
    )
