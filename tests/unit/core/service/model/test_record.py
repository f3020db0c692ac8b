"""A game as stored: every field survives the trip, and fields at their usual value cost nothing."""

from __future__ import annotations

import json

import pytest

from core.game.settlement import Pot
from core.service.model.record import GameRecord
from core.service.model.turns import LastTurn, dump_log, load_log
from core.service.model.unreadable import PROBLEM_CHARS, Kind, Unreadable
from tests.unit.core.game_helpers import begun


def _fresh() -> GameRecord:
    return GameRecord(begun("Ann", "Bob"), "c1", "g1", pot=Pot("pot:c1"), deadline=1_900_000_000)


def test_a_fresh_game_writes_only_what_it_has() -> None:
    """No pot contributions, fair dice, turns or reviews yet: none of them is written; nor the
    channel (the key names it), its own pot account, English or the emoji style."""
    stored = json.loads(_fresh().to_str())
    assert set(stored) == {"s", "g", "d", "t"}
    assert GameRecord.from_str(_fresh().to_str(), "c1") == _fresh()


def test_every_field_survives_the_trip() -> None:
    record = _fresh().evolve(
        pot=Pot("pot:elsewhere", (("ann", 5), ("bob", 5))), fair="seed", rolls=((3, 4), (6,)),
        solo=True, turns=(LastTurn(),), box=1, reviews=(("ann", "m43:64"),), lang="da",
        style="text",
    )  # fmt: skip
    assert GameRecord.from_str(record.to_str(), "c1") == record


def test_a_record_of_the_older_format_with_every_field_still_loads() -> None:
    older = {
        "s": _fresh().state.to_str(), "c": "c1", "g": "g1", "l": "en", "y": "emoji",
        "d": 1_900_000_000, "pa": "pot:c1", "pc": [], "f": "", "r": [], "t": 0,
        "solo": False, "tu": [], "bx": -1, "v": {},
    }  # fmt: skip
    assert GameRecord.from_str(json.dumps(older), "c1") == _fresh()


LOG = (
    (0, LastTurn(1, ("d32", "m16", "d46", "m257", "d5", "n2304"))),
    (1, LastTurn(1, ("d11", "m2", "s"), auto=True)),
    (0, LastTurn(2, ("d6", "l"), ended=False)),
)


def test_the_log_is_one_short_text_and_reads_back() -> None:
    """`seat.round.flags.steps`, a move's tiles one character each; the log written before
    (a list of lists) still reads."""
    text = dump_log(LOG)
    assert text == "0.1..d32m5d46m19d5n9c|1.1.a.d11m2s|0.2.o.d6l"
    assert load_log(text) == LOG
    assert load_log([[seat, *turn.to_json()] for seat, turn in LOG]) == LOG
    assert load_log("") == ()


def test_the_last_turns_are_taken_from_the_log_when_they_are_its() -> None:
    """The last turns are not written twice: the record keeps them only when they differ from
    the log's (a challenge keeps no log)."""
    turns = (LOG[2][1], LOG[1][1])
    record = _fresh().evolve(log=LOG, turns=turns)
    assert "tu" not in json.loads(record.to_str())
    assert GameRecord.from_str(record.to_str(), "c1") == record
    other = record.evolve(turns=(LastTurn(),))
    assert json.loads(other.to_str())["tu"] == [[0, "", 0, 1]]
    assert GameRecord.from_str(other.to_str(), "c1") == other
    challenge = _fresh().evolve(turns=turns)
    assert GameRecord.from_str(challenge.to_str(), "c1") == challenge


@pytest.mark.parametrize(
    "text",
    [
        "garbage",  # not JSON
        "[1, 2",  # JSON cut off
        "123",  # JSON, not an object
        '{"g": "g1"}',  # no state
        json.dumps({**json.loads(_fresh().to_str()), "s": "not;a;state"}),  # a state that fails
        json.dumps({**json.loads(_fresh().to_str()), "d": "soon"}),  # a deadline of text
        json.dumps({**json.loads(_fresh().to_str()), "pc": [["ann"]]}),  # a pot entry cut short
    ],
)
def test_a_record_that_does_not_parse_is_one_unreadable_game(text: str) -> None:
    """Whatever is wrong with it, the decoder says one thing: this channel's game, unreadable,
    with the text it read (so an admin's `stop` removes exactly that) and a short reason."""
    with pytest.raises(Unreadable) as raised:
        GameRecord.from_str(text, "c1")
    error = raised.value
    assert (error.kind, error.record, error.raw) == (Kind.GAME, "game:c1", text)
    assert error.key == "error.unreadable.game"
    assert 0 < len(error.problem) <= PROBLEM_CHARS


def test_a_long_reason_is_cut_to_one_short_line() -> None:
    with pytest.raises(Unreadable) as raised:
        GameRecord.from_str(json.dumps({"s": "x" * 5000, "g": "g1", "d": 0, "t": 0}), "c1")
    assert len(raised.value.problem) <= PROBLEM_CHARS and "\n" not in raised.value.problem
