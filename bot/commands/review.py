"""`shutbox review`: grade one written turn against exact optimal play."""

from __future__ import annotations

import argparse
import json

from bot.commands import CommandError, Subparsers
from bot.commands.rules_options import CLI_LANG, add_rules_options, rules_from_args
from core.game.ai.review import (
    Aim,
    InvalidTurn,
    Review,
    Step,
    objective_for,
    parse_turn,
    review_from,
    review_json,
)
from core.game.ai.review_long import review_long_turn
from core.game.ai.solver import Objective, solve
from core.game.ai.solver_long import CLOSER, OPENER
from core.game.moves import mask_of
from core.game.numbers import is_digits
from core.game.rules import Rules
from core.text.i18n import decimal, t

# score: the sum or count the rules score by; win: the two-player long game's chance to win
OBJECTIVES = ("score", "count", "shut", "win")
UNITS = {
    Aim.SUM: "points",
    Aim.COUNT: "tiles",
    Aim.SHUT: "of the chance to shut",
    Aim.WIN: "of the chance to win",
}


def register(subparsers: Subparsers) -> None:
    """Add `review` to the command line."""
    parser = subparsers.add_parser(
        "review", help="grade a turn against optimal play", description=__doc__
    )
    add_rules_options(parser)
    parser.add_argument(
        "--objective",
        choices=list(OBJECTIVES),
        help="expected score, tiles left, chance to shut, or the long game's chance to win the "
        "match (default: the rules' scoring)",
    )
    parser.add_argument(
        "--seat",
        type=int,
        choices=(CLOSER, OPENER),
        help=f"with --objective win: who plays the turn, {CLOSER} the closer (default) or "
        f"{OPENER} the opener, who opens closed tiles",
    )
    parser.add_argument(
        "--open",
        metavar="TILES",
        help="the tiles open when the turn begins, joined by + (e.g. 9+5+1; default: all)",
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
    aim = _aim(rules, args)
    board = open_tiles(rules, args.open)
    try:
        review = _review(rules, aim, board, args.seat, parse_turn(args.turn))
    except InvalidTurn as err:
        raise CommandError(_step_error(err, args.turn)) from err
    print(json.dumps(review_json(review)) if args.json else review_text(review, aim))
    return 0


def _aim(rules: Rules, args: argparse.Namespace) -> Aim:
    """`score` (the default) is what the rules score by: points, or tiles under `count`."""
    scored = args.objective in (None, "score")
    aim = Aim.of(objective_for(rules)) if scored else Aim(args.objective)
    if args.seat is not None and aim is not Aim.WIN:
        raise CommandError("--seat chooses a side of the long game: add --objective win")
    if args.seat == OPENER and args.open is None:
        raise CommandError("the opener opens closed tiles: say which are open, e.g. --open 9+5+1")
    return aim


def _review(
    rules: Rules, aim: Aim, board: int, seat: int | None, steps: tuple[Step, ...]
) -> Review:
    if aim is Aim.WIN:
        return review_long_turn(rules, board, CLOSER if seat is None else seat, steps)
    return review_from(solve(rules, Objective(aim.value)), board, steps)


def open_tiles(rules: Rules, text: str | None) -> int:
    """`--open 9+5+1` as a mask (all tiles when not given); anything else is a `CommandError`."""
    if text is None:
        return rules.full_mask
    tiles = text.split("+")
    numbers = [int(tile) for tile in tiles if is_digits(tile) and len(tile) < 3]
    if (
        len(numbers) != len(tiles)
        or len(set(numbers)) != len(numbers)
        or not all(1 <= tile <= rules.tiles for tile in numbers)
    ):
        raise CommandError(
            f"--open takes different tiles from 1 to {rules.tiles} joined by +, not {text!r}"
        )
    return mask_of(numbers)


def _step_error(err: InvalidTurn, turn: str) -> str:
    words = turn.split()
    step = err.params.get("step")
    text = words[step - 1] if isinstance(step, int) and 0 < step <= len(words) else ""
    return t(CLI_LANG, err.key, **{"text": text, **err.params})


def review_text(review: Review, aim: Aim) -> str:
    """One line per decision, then the totals in the aim's unit."""
    lines = []
    for decision in review.decisions:
        roll = "dice" if not decision.roll else "-".join(map(str, decision.roll))
        verdict = f"best {decision.best_label}, loss {decision.loss:.4f}"
        if decision.was_best:
            verdict = "best"
        lines.append(f"  {roll:>6}  {decision.chosen_label:<8} {verdict}")
    accuracy = review.accuracy
    shown = "-" if accuracy is None else f"{decimal(CLI_LANG, accuracy)} %"
    lines.append(f"Accuracy {shown}, expected loss {review.expected_loss:.4f} {UNITS[aim]}")
    return "\n".join(lines)
