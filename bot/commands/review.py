"""`shutbox review`: grade one written turn against exact optimal play."""

from __future__ import annotations

import argparse
import json

from bot.commands import CommandError, Subparsers
from bot.commands.rules_options import CLI_LANG, add_rules_options, rules_from_args
from core.game.ai.review import (
    InvalidTurn,
    Review,
    objective_for,
    parse_turn,
    review_json,
    review_turn,
)
from core.game.ai.solver import Objective
from core.text.i18n import decimal, t

OBJECTIVES = ("score", "count", "shut")  # score: the sum or count the rules score by


def register(subparsers: Subparsers) -> None:
    """Add `review` to the command line."""
    parser = subparsers.add_parser(
        "review", help="grade a turn against optimal play", description=__doc__
    )
    add_rules_options(parser)
    parser.add_argument(
        "--objective",
        choices=list(OBJECTIVES),
        help="expected score, tiles left, or chance to shut (default: the rules' scoring)",
    )
    parser.add_argument(
        "--turn",
        required=True,
        help='the turn as ROLL:MOVE steps, e.g. "4-3:7 6-2:8 2-1:2+1 5-5:-"',
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    objective = (
        objective_for(rules) if args.objective in (None, "score") else Objective(args.objective)
    )
    try:
        review = review_turn(rules, objective, parse_turn(args.turn))
    except InvalidTurn as err:
        raise CommandError(_step_error(err, args.turn)) from err
    print(json.dumps(review_json(review)) if args.json else review_text(review))
    return 0


def _step_error(err: InvalidTurn, turn: str) -> str:
    words = turn.split()
    step = err.params.get("step")
    text = words[step - 1] if isinstance(step, int) and 0 < step <= len(words) else ""
    return t(CLI_LANG, err.key, **{"text": text, **err.params})


def review_text(review: Review) -> str:
    """One line per decision, then the totals."""
    lines = []
    for decision in review.decisions:
        roll = "dice" if not decision.roll else "-".join(map(str, decision.roll))
        verdict = f"best {decision.best_label}, loss {decision.loss:.4f}"
        if decision.was_best:
            verdict = "best"
        lines.append(f"  {roll:>6}  {decision.chosen_label:<8} {verdict}")
    accuracy = review.accuracy
    shown = "-" if accuracy is None else f"{decimal(CLI_LANG, accuracy)} %"
    lines.append(f"Accuracy {shown}, expected loss {review.expected_loss:.4f}")
    return "\n".join(lines)
