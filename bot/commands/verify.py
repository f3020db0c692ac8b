"""`shutbox verify`: check a published match record's dice against its revealed server seed,
or a finished tournament's record (`U1|...`): its seed against the commitment published at
the start, and every round against the pairing the seed and the results before it give."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.commands import CommandError, Subparsers
from core.game.dice import MatchRecord, VerifyResult, verify_record
from core.game.errors import CorruptState
from core.game.tournament.text_form import from_text
from core.game.tournament.verify import pairing_faults

NOT_VERIFIED = 1
TOURNAMENT_PREFIX = "U1|"


def verify_tournament(text: str, *, as_json: bool) -> int:
    """A tournament record: the seed, then every round's pairing."""
    try:
        tournament = from_text(text)
    except CorruptState as err:
        raise CommandError("not a tournament record (the U1|... text shown at its end)") from err
    faults = pairing_faults(tournament)
    if as_json:
        print(json.dumps({"ok": not faults, "rounds": len(tournament.rounds), "faults": faults}))
    elif faults:
        print("FAILED: " + "; ".join(faults) + ".")
    else:
        print(f"OK: the seed matches the commitment and all {len(tournament.rounds)} rounds "
              "are the pairings it gives.")  # fmt: skip
    return NOT_VERIFIED if faults else 0


def register(subparsers: Subparsers) -> None:
    """Add `verify` to the command line."""
    parser = subparsers.add_parser(
        "verify", help="check a match record's dice", description=__doc__
    )
    parser.add_argument(
        "record", help="a JSON file, the JSON text itself, or - to read it from stdin"
    )
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = read_record_text(args.record)
    if text.strip().startswith(TOURNAMENT_PREFIX):
        return verify_tournament(text.strip(), as_json=args.json)
    record = parse_record(text)
    result = verify_record(record)
    print(json.dumps(result_json(result)) if args.json else describe(result, record))
    return 0 if result.ok else NOT_VERIFIED


def read_record_text(source: str) -> str:
    """The record's text from stdin (`-`), from the argument itself (JSON), or from a file."""
    if source == "-":
        return sys.stdin.read()
    if source.lstrip().startswith(("{", TOURNAMENT_PREFIX)):
        return source
    try:
        return Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CommandError(f"cannot read the match record {source!r}: {err}") from err


def parse_record(text: str) -> MatchRecord:
    try:
        return MatchRecord.from_json(text)
    except CorruptState as err:
        raise CommandError("not a match record (hmac-sha256-v1 JSON with seeds and rolls)") from err


def describe(result: VerifyResult, record: MatchRecord) -> str:
    """One line: every roll checks out, or what the first problem is."""
    if result.ok:
        return (
            f"OK: the server seed matches the commitment and all {len(record.rolls)} rolls "
            "check out."
        )
    if result.reason == "bad_seed":
        return "FAILED: the revealed server seed is not 64 lowercase hex digits."
    if result.reason == "commitment_mismatch":
        return "FAILED: the revealed server seed does not hash to the published commitment."
    index = result.index or 0
    return (
        f"FAILED: roll {index + 1} (nonce {index}) shows {_dice(result.actual)}, "
        f"but the seeds give {_dice(result.expected)}."
    )


def _dice(dice: tuple[int, ...] | None) -> str:
    return "-".join(map(str, dice)) if dice else "nothing"


def result_json(result: VerifyResult) -> dict[str, object]:
    return {
        "ok": result.ok,
        "reason": result.reason,
        "index": result.index,
        "expected": None if result.expected is None else list(result.expected),
        "actual": None if result.actual is None else list(result.actual),
    }
