"""The rules options every command shares: a preset with any single option laid over it.

Each `--option` is read from the game's option table (`RULE_OPTIONS`), with its help text in
English from the catalogs.
"""

from __future__ import annotations

import argparse
from typing import Any

from bot.commands import CommandError
from core.game.errors import InvalidRules
from core.game.option import Option
from core.game.rules import PRESETS, RULE_OPTIONS, Rules, build_rules
from core.text.i18n import t

CLI_LANG = "en"


def add_rules_options(parser: argparse.ArgumentParser, *, leave_out: tuple[str, ...] = ()) -> None:
    """Add one `--option` per rule option (`--preset`, `--tiles`, ..., `--last-die`, `--hard`),
    but those named in `leave_out` (a command whose own option has that name)."""
    group = parser.add_argument_group("rules", "a preset (classic by default) and any options")
    for option in RULE_OPTIONS:
        if option.name in leave_out:
            continue
        group.add_argument(f"--{option.typed}", dest=option.name, **_argument(option))


def _argument(option: Option) -> dict[str, Any]:
    """How argparse reads one option: a flag pair (`--hard`/`--no-hard`), or a value."""
    described = t(CLI_LANG, option.help_key)
    if option.kind is bool:
        return {"action": argparse.BooleanOptionalAction, "help": described}
    if option.name == "preset":
        # No argparse choices: an unknown preset gets the catalog's answer, which lists them.
        return {"help": f"{described}: {', '.join(option.listed())}"}
    if option.kind is int:
        return {"type": int, "choices": option.values, "help": described}
    return {"choices": [str(value) for value in option.values], "help": described}


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the options name; a combination that makes no sense is a `CommandError`."""
    laid_over = {o.name: getattr(args, o.name, None) for o in RULE_OPTIONS if o.name != "preset"}
    try:
        return build_rules(args.preset, **laid_over)
    except InvalidRules as err:
        raise CommandError(t(CLI_LANG, err.key, **err.params)) from err


def preset_name(rules: Rules) -> str | None:
    """The preset these rules are exactly, if any."""
    return next((name for name, known in PRESETS.items() if known == rules), None)
