"""`shutbox board`: the picture of a box (the image style's PNG), written to a file.

`shutbox board --tiles 1+4+9 --dice 5-3 -o board.png` draws the classic box with flaps 1, 4
and 9 still open and a roll of 5 and 3; the rules options choose the box (`--preset twelve`,
`--size 10`) and how many dice a roll may have.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from bot.commands import CommandError, Subparsers, bounded_int
from bot.commands.rules_options import add_rules_options, rules_from_args
from core.game.rules import TILE_COUNTS, Rules
from core.text.drawn import MAX_DICE, MAX_POT, DrawnBoard

_NUMBERS = re.compile(r"[0-9]{1,2}(?:[+,-][0-9]{1,2})*")


def register(subparsers: Subparsers) -> None:
    """Add `board` to the command line."""
    parser = subparsers.add_parser(
        "board", help="draw a board as a PNG picture", description=__doc__
    )
    parser.add_argument(
        "--tiles",
        dest="open_tiles",
        default="all",
        metavar="N+N+...",
        help="the flaps still open, e.g. 1+4+9 (default: all; none: a shut box)",
    )
    parser.add_argument(
        "--dice",
        dest="roll",
        default="",
        metavar="N-N",
        help="the roll on the felt, e.g. 5-3 (default: no dice; three dice need twelve flaps)",
    )
    parser.add_argument(
        "--size", type=int, choices=TILE_COUNTS, help="the number of flaps (default: the rules')"
    )
    parser.add_argument("--player", default="", help="whose turn it is, shown under the box")
    parser.add_argument("--pot", type=bounded_int(0, MAX_POT), help="the chips in the pot")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="where to write the PNG (- for standard output)",
    )
    add_rules_options(parser, leave_out=("tiles", "dice"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    dice = roll(args.roll)
    # The box's own options: its size, and three dice when three are on the felt
    args.tiles, args.dice = args.size, 3 if len(dice) == 3 else None
    rules = rules_from_args(args)
    board = DrawnBoard(
        tiles=rules.tiles,
        open_mask=open_mask(args.open_tiles, rules),
        dice=dice,
        player=args.player,
        pot=args.pot,
    )
    from core.text.picture import draw_png

    write(draw_png(board), args.output)
    return 0


def open_mask(text: str, rules: Rules) -> int:
    """`1+4+9` as a mask of open flaps; `all` and `none` as they say."""
    words = text.strip().lower()
    if words == "all":
        return rules.full_mask
    if words in {"none", ""}:
        return 0
    tiles = _numbers(words, "--tiles", "1+4+9")
    wrong = [tile for tile in tiles if not 1 <= tile <= rules.tiles]
    if wrong:
        raise CommandError(
            f"--tiles: {wrong[0]} is not a flap of a {rules.tiles}-flap box (1 to {rules.tiles})"
        )
    mask = 0
    for tile in tiles:
        mask |= 1 << (tile - 1)
    return mask


def roll(text: str) -> tuple[int, ...]:
    """`5-3` as the dice (one to three, each 1 to 6)."""
    if not text.strip():
        return ()
    dice = _numbers(text.strip(), "--dice", "5-3")
    if len(dice) > MAX_DICE:
        raise CommandError(f"--dice: a roll has 1 to {MAX_DICE} dice, not {len(dice)}")
    if any(not 1 <= pips <= 6 for pips in dice):
        raise CommandError(f"--dice: a die shows 1 to 6, not {text.strip()}")
    return tuple(dice)


def _numbers(text: str, option: str, example: str) -> list[int]:
    if not _NUMBERS.fullmatch(text):
        raise CommandError(
            f"{option}: write numbers joined by + or -, e.g. {example}, not {text!r}"
        )
    return [int(part) for part in re.split(r"[+,-]", text)]


def write(png: bytes, output: str) -> None:
    if output == "-":
        sys.stdout.buffer.write(png)
        return
    try:
        Path(output).write_bytes(png)
    except OSError as error:
        raise CommandError(f"cannot write {output}: {error.strerror or error}") from None
