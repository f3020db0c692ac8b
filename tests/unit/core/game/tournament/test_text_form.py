"""The tournament's text form round-trips at every step, and anything else is refused."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game.errors import CorruptState
from core.game.tournament.progress import join
from core.game.tournament.text_form import from_text, to_text
from core.game.tournament.values import Entry, Kind
from tests.unit.core.game.tournament.helpers import entered, played


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.sampled_from(list(Kind)), st.integers(2, 4),
       st.randoms(use_true_random=False))  # fmt: skip
def test_every_step_round_trips(count: int, kind: Kind, size: int, rng: random.Random) -> None:
    for step in played(entered(count, kind, size, fee=5), rng):
        assert from_text(to_text(step)) == step


@given(st.text(min_size=1, max_size=30), st.text(min_size=1, max_size=30))
def test_any_member_id_and_name_round_trip(member: str, name: str) -> None:
    tournament = join(entered(1), Entry(member + "x", name))
    assert from_text(to_text(tournament)) == tournament


@pytest.mark.parametrize("text", ["", "U1|x", "U9|a|open|n,swiss,3,t9.d2.any.1d.sum,rounds:1,2,0,"
                                  "100,0|||", "U1|a|lost|n,swiss,3,t9.d2.any.1d.sum,rounds:1,2,0,"
                                  "100,0|||"])  # fmt: skip
def test_a_text_that_is_no_tournament_is_corrupt(text: str) -> None:
    with pytest.raises(CorruptState):
        from_text(text)
