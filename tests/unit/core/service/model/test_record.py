"""A game as stored: every field survives the trip, and fields at their usual value cost nothing."""

from __future__ import annotations

import json

from core.game.settlement import Pot
from core.service.model.record import GameRecord
from core.service.model.turns import LastTurn
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
