"""A player's last turn: kept as compact steps, shown in words in the game's language and style."""

from __future__ import annotations

from core.game.events import Moved, Rolled, RoundStarted, TimedOut, TurnEnd, TurnEnded
from core.service.model import turns
from core.service.model.turns import LastTurn
from tests.unit.core.game_helpers import begun

ANN_AND_BOB = begun("Ann", "Bob")
TILE = {n: 1 << (n - 1) for n in range(1, 10)}


def ann_turn() -> tuple[LastTurn, ...]:
    events = [
        Rolled(0, (2, 1), auto=False),
        Moved(0, TILE[3], auto=False),
        Rolled(0, (5, 3), auto=False),
        TurnEnded(0, 42, TurnEnd.NO_MOVE, (5, 3), available=TILE[1] | TILE[2]),
    ]
    return turns.follow(ANN_AND_BOB, ANN_AND_BOB, (), events)


def test_a_turn_is_stored_as_compact_steps() -> None:
    first = ann_turn()[0]
    assert first.steps == ("d21", "m4", "d53", "n3")
    assert first.ended
    assert turns.load(turns.dump(ann_turn())) == ann_turn()


def test_a_turn_is_shown_in_the_games_style_and_language() -> None:
    first = ann_turn()[0]
    text = turns.text_of(first, 0, ANN_AND_BOB, "en", "text")
    assert text == "2 + 1 = 3 → 3 · 5 + 3 = 8 ✗ no open tiles add up to 8"
    emoji = turns.text_of(first, 0, ANN_AND_BOB, "en", "emoji")
    assert emoji.startswith("⚁ ⚀ = 3 → 3 · ")
    assert turns.text_of(first, 0, ANN_AND_BOB, "da", "text") != text


def test_a_shut_and_an_auto_played_turn_say_so() -> None:
    events = [TimedOut(1), Rolled(1, (6, 3), auto=True), Moved(1, TILE[9], auto=True),
              TurnEnded(1, 0, TurnEnd.SHUT, (6, 3))]  # fmt: skip
    bob = turns.follow(ANN_AND_BOB, ANN_AND_BOB, (), events)[1]
    assert bob.auto
    line = turns.line(bob, 1, ANN_AND_BOB, "en", "text")
    assert line == "  ↳ played automatically: 6 + 3 = 9 → 9 · 🎉 shut the box"


def test_a_new_round_starts_a_new_turn() -> None:
    events = [RoundStarted(2, (0, 1)), Rolled(0, (4, 4), auto=False)]
    first = turns.follow(ANN_AND_BOB, ANN_AND_BOB, ann_turn(), events)[0]
    assert first.round == 2
    assert first.steps == ("d44",)
