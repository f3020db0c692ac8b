"""Actions have a compact text form that round-trips; broken text is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.game.actions import ACTIONS, Choose, Join, Roll, Stop, action_from_str
from core.game.errors import InvalidOption

texts = st.text(min_size=1, max_size=20)
versions = st.none() | st.integers(min_value=0, max_value=10_000)
actions = st.one_of(
    st.builds(Join, user=texts, version=versions, name=texts),
    st.builds(Roll, user=texts, version=versions, count=st.integers(1, 3)),
    st.builds(Choose, user=texts, version=versions, tiles=st.integers(1, 4095)),
    st.builds(Stop, user=texts, version=versions, admin=st.booleans()),
    *(st.builds(kind, user=texts, version=versions) for tag, kind in ACTIONS.items()
      if tag in ("leave", "bot", "begin", "cancel", "timeout")),
)  # fmt: skip


@given(actions)
def test_actions_round_trip(action: object) -> None:
    """Every action survives `to_str` and `action_from_str` unchanged."""
    assert action_from_str(action.to_str()) == action  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", ["", "fly:ann", "roll:ann", "choose:ann:1:x", "roll:a:b:c:d:e"])
def test_broken_action_text_is_refused(text: str) -> None:
    """Unknown tags, missing fields and text in numbers are refused."""
    with pytest.raises(InvalidOption):
        action_from_str(text)
