"""`shutbox verify` on a finished tournament's record (SPEC 12): the seed against the
commitment, every round against the pairing it gives; exit 0, 1, or 2 with one line."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from bot.cli import main
from core.game.tournament.text_form import to_text
from core.game.tournament.values import Kind, Table
from tests.unit.core.game.tournament.helpers import entered, played


def finished_record() -> str:
    return to_text(played(entered(7, Kind.SWISS, 3), random.Random(9))[-1])


def test_a_finished_tournament_checks_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", finished_record()]) == 0
    assert capsys.readouterr().out.strip() == (
        "OK: the seed matches the commitment and all 3 rounds are the pairings it gives."
    )
    assert main(["verify", finished_record(), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"ok": True, "rounds": 3, "faults": []}


def test_a_moved_player_fails(capsys: pytest.CaptureFixture[str]) -> None:
    final = played(entered(6, Kind.SWISS, 2), random.Random(2))[-1]
    second = final.rounds[1]
    first_table = second.tables[0]
    moved = (Table(1, first_table.seats[::-1], first_table.result), *second.tables[1:])
    rounds = (final.rounds[0], replace(second, tables=moved), *final.rounds[2:])
    assert main(["verify", to_text(replace(final, rounds=rounds))]) == 1
    assert capsys.readouterr().out.strip() == (
        "FAILED: round 2 is not the pairing its seed gives."
    )


def test_a_broken_record_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "U1|nonsense"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("not a tournament record (the U1|... text shown at its end)")
    assert len(err.splitlines()) == 1
