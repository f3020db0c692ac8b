"""The rules options every command shares: a preset with any single option laid over it."""

from __future__ import annotations

import argparse

from bot.commands import CommandError
from core.game.errors import InvalidRules
from core.game.rules import PRESETS, TILE_COUNTS, CloseRule, Rules, Scoring, build_rules
from core.text.i18n import t

CLI_LANG = "en"


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """Add `--preset`, `--tiles`, `--dice`, `--close`, `--last-die`, `--hard`, `--scoring`."""
    group = parser.add_argument_group("rules", "a preset (classic by default) and any options")
    group.add_argument("--preset", help=f"one of: {', '.join(PRESETS)}")
    group.add_argument("--tiles", type=int, choices=TILE_COUNTS, help="tiles in the box")
    group.add_argument("--dice", type=int, choices=(2, 3), help="3 dice need 12 tiles")
    group.add_argument(
        "--close", choices=[rule.value for rule in CloseRule], help="which tiles a roll closes"
    )
    group.add_argument(
        "--last-die",
        action=argparse.BooleanOptionalAction,
        help="sum-or-dice: close one die's tile as a last resort, ending the turn",
    )
    group.add_argument(
        "--hard",
        action=argparse.BooleanOptionalAction,
        help="no one-die rule: always roll all dice",
    )
    group.add_argument(
        "--scoring", choices=[scoring.value for scoring in Scoring], help="sum (golf) or count"
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the options name; a combination that makes no sense is a `CommandError`."""
    try:
        return build_rules(
            args.preset,
            tiles=args.tiles,
            dice=args.dice,
            close=args.close,
            last_die=args.last_die,
            hard=args.hard,
            scoring=args.scoring,
        )
    except InvalidRules as err:
        raise CommandError(t(CLI_LANG, err.key, **err.params)) from err


def preset_name(rules: Rules) -> str | None:
    """The preset these rules are exactly, if any."""
    return next((name for name, known in PRESETS.items() if known == rules), None)
