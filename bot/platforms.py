"""The chat platforms the bot serves, one entry each: read by `shutbox run`, the command line,
the settings (every platform's section is checked at start-up) and, through `run`, the health
endpoint (which platforms this process must be connected to).

Adding a platform: its adapter folder (adapters/<name>/, with its `Surface` for
core/service/api/delivery.py), its module in bot/commands/ (settings section, subcommand, and how to
serve it on an open runtime), and one entry below.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic

from bot.commands import Subparsers, discord, slack
from bot.sections import Section, Settings

if TYPE_CHECKING:
    from bot.runtime import Runtime


@dataclass(frozen=True, slots=True)
class Platform(Generic[Section]):
    title: str  # as people write it: "Discord"
    section: type[Section]  # its settings (DISCORD_*, SLACK_*)
    enabled: Callable[[Section], bool]  # whether those settings turn it on
    serve: Callable[[Settings, Runtime], Awaitable[None]]  # on an open runtime, until cancelled
    command: Callable[[Subparsers], argparse.ArgumentParser]  # adds its subcommand
    run: Callable[[argparse.Namespace, Settings], int]  # runs that subcommand

    def on(self, settings: Settings) -> bool:
        return self.enabled(settings.section(self.section))


# The key is the platform's name in scopes, metrics, the health report and the command line.
PLATFORMS: dict[str, Platform[Any]] = {
    discord.PLATFORM: Platform(
        title="Discord", section=discord.DiscordSettings, enabled=discord.enabled,
        serve=discord.serve_discord, command=discord.register, run=discord.run,
    ),
    slack.PLATFORM: Platform(
        title="Slack", section=slack.SlackSettings, enabled=slack.enabled,
        serve=slack.serve_slack, command=slack.register, run=slack.run,
    ),
}  # fmt: skip


def enabled_platforms(settings: Settings) -> dict[str, Platform[Any]]:
    """The platforms whose settings turn them on, by name, in the registry's order."""
    return {name: platform for name, platform in PLATFORMS.items() if platform.on(settings)}


def titles(last: str) -> str:
    """The platforms' names for a sentence: "Discord and Slack", "Discord, Slack or Teams"."""
    names = [platform.title for platform in PLATFORMS.values()]
    return f"{', '.join(names[:-1])} {last} {names[-1]}" if len(names) > 1 else "".join(names)
