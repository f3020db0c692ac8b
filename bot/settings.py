"""Settings from the environment (and `.env`), one class per section with its own prefix.

The core's and Redis's sections are in bot/sections.py, each platform's with the platform
(bot/platforms.py lists them). Secrets have no defaults; a malformed value stops start-up with
one line naming the setting.
"""

from __future__ import annotations

from pydantic_settings import BaseSettings

from bot.commands.discord import DiscordSettings  # importable from here, as before
from bot.commands.slack import SlackSettings
from bot.platforms import PLATFORMS
from bot.sections import CoreSettings, RedisSettings, Settings, SettingsError, read_settings

__all__ = [
    "SECTIONS", "CoreSettings", "DiscordSettings", "RedisSettings", "Settings", "SettingsError",
    "SlackSettings", "load_settings",
]  # fmt: skip

# Every section the bot reads, the platforms' in the registry's order.
SECTIONS: tuple[type[BaseSettings], ...] = (
    CoreSettings, RedisSettings, *(platform.section for platform in PLATFORMS.values())
)  # fmt: skip


def load_settings() -> Settings:
    """Every section, read and checked; a `SettingsError` names the first setting that is wrong."""
    return read_settings(platform.section for platform in PLATFORMS.values())
