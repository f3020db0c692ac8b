"""The documentation site's tables, made from the code so that they can't fall behind it.

mkdocs loads this module as a hook (mkdocs.yml): a page that holds a line
`<!-- generated: NAME -->` gets the table NAME in its place when the site is built. The tables
are the subcommands' help lines (the bot's own `/shutbox help`), the `shutbox` command's
subcommands (its argparse help), the rule presets (the catalog's titles and descriptions) and
the settings (`.env.example`, which a test holds to the settings the code reads).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^<!-- generated: ([a-z-]+) -->$", re.MULTILINE)
_SETTING = re.compile(r"^[A-Z][A-Z0-9_]+=")


class UnknownTable(ValueError):
    """A page asks for a table this module does not make."""


def _row(*cells: str) -> str:
    return "| " + " | ".join(_outside_code(cell, lambda text: text.replace("|", "\\|"))
                             for cell in cells) + " |"  # fmt: skip


def _outside_code(text: str, change: Callable[[str], str]) -> str:
    """`text` with `change` applied outside its code spans (a table keeps `a|b` in one cell)."""
    parts = text.split("`")
    for index in range(0, len(parts), 2):  # the even parts lie outside code spans
        parts[index] = change(parts[index])
    return "`".join(parts)


def subcommands_table() -> str:
    """Every `/shutbox` subcommand with its words and what it does, as `/shutbox help` says."""
    from core.service.pipeline.subcommands import command_lines

    rows = [_row("command", "what it does"), "|---|---|"]
    for line in command_lines("en"):
        words, _, what = line.partition(" — ")
        rows.append(_row(f"`/shutbox {words}`", what))
    return "\n".join(rows)


def presets_table() -> str:
    """Every rules preset with its title and description from the English catalog."""
    from core.game.rules import PRESETS
    from core.text.i18n import t

    rows = [_row("preset", "name", "the rules"), "|---|---|---|"]
    for name in PRESETS:
        key = f"rules.preset.{name}"
        rows.append(_row(f"`{name}`", t("en", f"{key}.title"), t("en", f"{key}.description")))
    return "\n".join(rows)


def formats_table() -> str:
    """Every match format with its title and description from the English catalog."""
    from core.game.match import FormatKind

    return _explained("format", "format", [kind.value for kind in FormatKind])


def stakes_table() -> str:
    """Every kind of stakes with its title and description from the English catalog."""
    from core.game.match import StakesKind

    return _explained("stakes", "stakes", [kind.value for kind in StakesKind])


def _explained(heading: str, group: str, names: list[str]) -> str:
    from core.text.i18n import t

    rows = [_row(heading, "name", "what it means"), "|---|---|---|"]
    for name in names:
        key = f"{group}.{name}"
        rows.append(_row(f"`{name}`", t("en", f"{key}.title"), t("en", f"{key}.description")))
    return "\n".join(rows)


def cli_table() -> str:
    """Every `shutbox` subcommand with its one-line help."""
    from bot.cli import build_parser

    rows = [_row("command", "what it does"), "|---|---|"]
    for name, help_text in _subcommands(build_parser()):
        rows.append(_row(f"`shutbox {name}`", help_text))
    return "\n".join(rows)


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str]]:
    for action in parser._actions:  # argparse keeps its subparsers only here
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield choice.dest, choice.help or ""


def settings_table(example: Path = ROOT / ".env.example") -> str:
    """Every setting in `.env.example`: its name, its default there, and the comment above it."""
    rows = [_row("setting and its default", "what it is"), "|---|---|"]
    for settings, comment in _settings(example.read_text(encoding="utf-8")):
        rows.append(_row("<br>".join(f"`{setting}`" for setting in settings), _prose(comment)))
    return "\n".join(rows)


def _prose(text: str) -> str:
    """`text` as Markdown: `<` and `>` outside code spans are characters, not HTML tags."""
    return _outside_code(text, lambda part: part.replace("<", "&lt;").replace(">", "&gt;"))


def _settings(text: str) -> Iterator[tuple[list[str], str]]:
    """(each `NAME=default`, the comment above them) per block of `.env.example`."""
    comment: list[str] = []
    settings: list[str] = []
    for line in [*text.splitlines(), ""]:
        if _SETTING.match(line) and not line.startswith("#"):
            settings.append(line.strip())
            continue
        if settings:
            yield settings, " ".join(comment)
            comment, settings = [], []
        if line.startswith("# ") and not line.startswith("# ---"):
            comment.append(line[2:].strip())
        elif not line.strip() or line.startswith("# ---"):
            comment = []


TABLES: dict[str, Callable[[], str]] = {
    "subcommands": subcommands_table,
    "presets": presets_table,
    "formats": formats_table,
    "stakes": stakes_table,
    "cli": cli_table,
    "settings": settings_table,
}


def fill(markdown: str) -> str:
    """`markdown` with each `<!-- generated: NAME -->` line replaced by the table NAME."""

    def table(found: re.Match[str]) -> str:
        name = found.group(1)
        if name not in TABLES:
            raise UnknownTable(f"no generated table {name!r}; known: {', '.join(TABLES)}")
        return TABLES[name]()

    return MARKER.sub(table, markdown)


def on_page_markdown(markdown: str, **_: object) -> str:
    """mkdocs' hook: fill the page's generated tables."""
    return fill(markdown)
