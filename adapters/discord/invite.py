"""The OAuth2 link that adds the bot to a server, with the scopes and permissions it uses."""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")


def bot_permissions() -> discord.Permissions:
    """See the channel, post the game message (an embed) and summaries, also in threads, and
    start the threads a tournament's tables are played in."""
    return discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        create_public_threads=True,
        embed_links=True,
        read_message_history=True,  # to edit the game message it posted earlier
    )


def invite_url(client_id: int | str) -> str:
    return discord.utils.oauth_url(client_id, permissions=bot_permissions(), scopes=SCOPES)
