"""`/shutbox help`: an overview that fits one chat message, and `help <command>` in detail.

The overview names every subcommand once, grouped by what it is for; `help <command>` gives that
command's line (the words it takes, what it does) and, for the commands that open a game or
explain the rules, the presets, formats and stakes. A Discord client shows the subcommands under
its own language's names, so a topic may be written in any catalog's name too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.service.api.text_commands import UsageError
from core.text.i18n import LANGS, t

# The overview's groups, in the order shown; every subcommand but `help` is in exactly one.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("play", ("start", "solo", "join", "leave", "stop", "review", "challenge", "rules", "odds")),
    ("chips", ("balance", "daily", "give", "leaderboard", "stats", "rank", "season")),
    ("tournament", ("tournament",)),
    ("server", ("ping", "web", "config", "grant", "audit")),
)
# The topics whose detail ends with the presets, formats and stakes they take.
WITH_FOOTER = ("start", "solo", "rules")


def overview(lang: str) -> str:
    """What the game is, every subcommand by group, and how to ask about one."""
    groups = [
        t(lang, f"help.group.{group}") + ": " + ", ".join(f"`{name}`" for name in names)
        for group, names in GROUPS
    ]
    return "\n".join((t(lang, "help.intro"), t(lang, "help.commands"), *groups,
                      t(lang, "help.more")))  # fmt: skip


def topic_name(topic: str, names: Sequence[str]) -> str:
    """The subcommand a topic names: its English name, or its name in a catalog's language
    (as a Discord client shows it); a `UsageError` naming the topics for anything else."""
    word = topic.strip().lower().removeprefix("/shutbox").strip()
    for name in names:
        shown = {name, *(t(lang, f"discord.command.{name}.name") for lang in LANGS)}
        if word in shown:
            return name
    raise UsageError("usage.help_topic", value=topic[:30], allowed=", ".join(names))


def detail(lang: str, name: str, lines: Mapping[str, str]) -> str:
    """One subcommand's help: its line, then the presets, formats and stakes where it takes them."""
    shown = f"/shutbox {lines[name]}"
    return f"{shown}\n{t(lang, 'help.footer')}" if name in WITH_FOOTER else shown
