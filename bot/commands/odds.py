"""`shutbox odds`: chance to shut, expected scores and best first moves under optimal play."""

from __future__ import annotations

import argparse
import json

from bot.commands import Subparsers
from bot.commands.rules_options import CLI_LANG, add_rules_options, preset_name, rules_from_args
from core.game.ai.odds import Odds, compute_odds
from core.game.ai.solver import Objective
from core.game.rules import Rules
from core.text.render import describe_rules

QUICK_EXACT_TILES = (9, 10)  # the exact fraction takes a moment for 12 tiles: only on --exact


def register(subparsers: Subparsers) -> None:
    """Add `odds` to the command line."""
    parser = subparsers.add_parser(
        "odds", help="optimal-play odds for a rule set", description=__doc__
    )
    add_rules_options(parser)
    parser.add_argument(
        "--objective",
        choices=[objective.value for objective in Objective],
        help="what the best first moves aim for (default: the rules' scoring)",
    )
    parser.add_argument(
        "--exact", action="store_true", help="the exact fraction for 12 tiles too (slower)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    objective = Objective(args.objective or rules.scoring.value)
    odds = compute_odds(rules, objective, exact=args.exact or rules.tiles in QUICK_EXACT_TILES)
    print(json.dumps(odds_json(odds), indent=2) if args.json else odds_text(odds))
    return 0


def odds_json(odds: Odds) -> dict[str, object]:
    exact = odds.p_shut_exact
    return {
        "rules": odds.rules.to_str(),
        "p_shut": odds.p_shut,
        "p_shut_exact": None if exact is None else f"{exact.numerator}/{exact.denominator}",
        "expected_score": odds.expected_score,
        "expected_count": odds.expected_count,
        "objective": odds.objective.value,
        "best_first_moves": odds.best_first_moves,
    }


def odds_text(odds: Odds) -> str:
    """A heading, the three figures, and the first-move table."""
    exact = f"  ({odds.p_shut_exact})" if odds.p_shut_exact is not None else ""
    lines = [
        _heading(odds.rules),
        f"  Chance to shut the box   {odds.p_shut:8.4%}{exact}",
        f"  Expected sum left        {odds.expected_score:8.4f}",
        f"  Expected tiles left      {odds.expected_count:8.4f}",
        "",
        f"Best first move ({_aim(odds.objective)}):",
        f"  {'roll':>5}  move",
    ]
    for roll, move in odds.best_first_moves.items():
        lines.append(f"  {roll:>5}  {move or '— closes nothing, the turn ends'}")
    return "\n".join(lines)


def _heading(rules: Rules) -> str:
    name = preset_name(rules)
    described = describe_rules(rules, CLI_LANG)
    title = f"{name}: {described}" if name else described
    return f"Optimal play — {title}  [{rules.to_str()}]"


def _aim(objective: Objective) -> str:
    return {
        Objective.SHUT: "for the best chance to shut",
        Objective.SUM: "for the lowest expected sum",
        Objective.COUNT: "for the fewest tiles left",
    }[objective]
