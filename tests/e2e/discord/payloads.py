"""Discord API objects as the fake sends them: users, members, channels, messages, interactions.

Only the fields discord.py 2.7 reads (see `discord/interactions.py` `_from_data`, `Message`,
`Member`) plus the ones Discord always sends; ids are snowflake strings.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

Json = dict[str, Any]

APP_ID = 1_100_000_000_000_000_001  # the bot user has the application's id, as on Discord
GUILD_ID = 1_100_000_000_000_000_100
CHANNEL_ID = 1_100_000_000_000_000_200
ATTACHMENT_LIMIT = 25 * 1024 * 1024

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
READ_HISTORY = 1 << 16
USE_COMMANDS = 1 << 31
MANAGE_GUILD = 1 << 5
MEMBER_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | READ_HISTORY | USE_COMMANDS
BOT_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | READ_HISTORY

GUILD_CONTEXT, BOT_DM_CONTEXT = 0, 1
TEXT_CHANNEL, DM_CHANNEL = 0, 1
LOADING = 1 << 7  # message flag of a deferred "thinking" response
EPHEMERAL = 1 << 6

_snowflakes = itertools.count(1_200_000_000_000_000_000)


def snowflake() -> int:
    """A new id, increasing like Discord's."""
    return next(_snowflakes)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True, slots=True)
class User:
    """A Discord user who types commands and clicks buttons in the tests."""

    id: int
    name: str
    locale: str = "en-US"
    admin: bool = False  # Manage Server
    bot: bool = False  # another app's bot user
    guild_member: bool = True  # resolved as a member of the guild (False: a user elsewhere)

    def payload(self) -> Json:
        return {
            "id": str(self.id), "username": self.name.lower(), "discriminator": "0",
            "global_name": self.name, "avatar": None, "public_flags": 0,
            **({"bot": True} if self.bot else {}),
        }  # fmt: skip

    def member(self) -> Json:
        permissions = MEMBER_PERMISSIONS | (MANAGE_GUILD if self.admin else 0)
        return {
            "user": self.payload(), "roles": [], "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False, "mute": False, "flags": 0, "pending": False, "nick": None,
            "permissions": str(permissions),
        }  # fmt: skip


BOT = User(APP_ID, "Shutbox")


def bot_user() -> Json:
    return {**BOT.payload(), "bot": True, "verified": True, "flags": 0, "mfa_enabled": False}


def guild_channel(channel_id: int = CHANNEL_ID) -> Json:
    return {
        "id": str(channel_id), "type": TEXT_CHANNEL, "guild_id": str(GUILD_ID),
        "name": "games", "position": 0, "permission_overwrites": [], "nsfw": False,
        "parent_id": None, "topic": None, "last_message_id": None, "rate_limit_per_user": 0,
        "flags": 0, "permissions": str(MEMBER_PERMISSIONS),
    }  # fmt: skip


def dm_channel(channel_id: int, user: User) -> Json:
    return {
        "id": str(channel_id), "type": DM_CHANNEL, "recipients": [user.payload()],
        "last_message_id": None, "flags": 0,
    }  # fmt: skip


def message(message_id: int, channel_id: int, data: Json, *, flags: int, guild: bool) -> Json:
    """A message the bot posted, as Discord returns it."""
    return {
        "id": str(message_id), "channel_id": str(channel_id), "author": bot_user(),
        "content": data.get("content") or "", "embeds": data.get("embeds") or [],
        "components": data.get("components") or [], "flags": flags, "timestamp": now_iso(),
        "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
        "mention_roles": [], "attachments": [], "pinned": False, "type": 0,
        "application_id": str(APP_ID), **({"guild_id": str(GUILD_ID)} if guild else {}),
    }  # fmt: skip


def attachment(attachment_id: str, upload: Any, description: str | None) -> Json:
    """A file the bot uploaded, as a message lists it (`upload`: a multipart.Upload)."""
    url = f"https://cdn.discordapp.com/attachments/{attachment_id}/{upload.filename}"
    return {
        "id": attachment_id, "filename": upload.filename, "size": len(upload.data), "url": url,
        "proxy_url": url, "content_type": upload.content_type,
        **({"description": description} if description else {}),
    }  # fmt: skip


@dataclass(frozen=True, slots=True)
class Forged:
    """An option sent as given, whatever its registered type: `Forged(4, 1.5)` is an integer
    option holding a fraction; `Forged(6, "42")` a user option whose user is not resolved."""

    type: int
    value: object


def option_type(value: object) -> int:
    """Discord's option type for a Python value: string 3, integer 4, boolean 5, user 6."""
    if isinstance(value, User):
        return 6
    if isinstance(value, bool):
        return 5
    return 4 if isinstance(value, int) else 3


def command_data(name: str, options: dict[str, object]) -> Json:
    """`/shutbox <name> key:value ...` as the `data` of an application command interaction."""
    given = [
        {"name": key, "type": value.type, "value": value.value} if isinstance(value, Forged) else
        {"name": key, "type": option_type(value),
         "value": str(value.id) if isinstance(value, User) else value}
        for key, value in options.items()
    ]  # fmt: skip
    users = [value for value in options.values() if isinstance(value, User)]
    data: Json = {
        "id": str(APP_ID + 7), "name": "shutbox", "type": 1,
        "options": [{"name": name, "type": 1, "options": given}],
    }  # fmt: skip
    if users:
        data["resolved"] = {
            "users": {str(u.id): u.payload() for u in users},
            "members": {str(u.id): {k: v for k, v in u.member().items() if k != "user"}
                        for u in users if u.guild_member},
        }  # fmt: skip
    return data


def interaction(
    kind: int, user: User, data: Json, *, interaction_id: int, token: str,
    channel: Json, message: Json | None = None,
) -> Json:  # fmt: skip
    """An INTERACTION_CREATE payload: in the guild's channel, or in the user's DM channel."""
    in_guild = channel["type"] == TEXT_CHANNEL
    payload: Json = {
        "id": str(interaction_id), "application_id": str(APP_ID), "type": kind, "data": data,
        "token": token, "version": 1, "locale": user.locale, "entitlements": [],
        "app_permissions": str(BOT_PERMISSIONS), "attachment_size_limit": ATTACHMENT_LIMIT,
        "channel_id": channel["id"], "channel": channel,
        "context": GUILD_CONTEXT if in_guild else BOT_DM_CONTEXT,
        "authorizing_integration_owners": {"0": str(GUILD_ID)} if in_guild else {"1": str(user.id)},
    }  # fmt: skip
    if in_guild:
        payload |= {
            "guild_id": str(GUILD_ID), "guild_locale": "en-US", "member": user.member(),
            "guild": {"id": str(GUILD_ID), "locale": "en-US", "features": []},
        }  # fmt: skip
    else:
        payload["user"] = user.payload()
    if message is not None:
        payload["message"] = message
    return payload


def ping() -> Json:
    """Discord's PING to an Interactions Endpoint URL (sent when the URL is saved)."""
    return {"id": str(snowflake()), "application_id": str(APP_ID), "type": 1, "token": "ping",
            "version": 1}  # fmt: skip
