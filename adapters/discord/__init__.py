"""The Discord surface: `/shutbox` slash commands and one game message per game, with buttons."""

from adapters.discord.client import ClientOptions, DiscordUnreachable, ShutboxClient, point_at

__all__ = ["ClientOptions", "DiscordUnreachable", "ShutboxClient", "point_at"]
