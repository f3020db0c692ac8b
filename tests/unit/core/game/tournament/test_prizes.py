"""The prize split (SPEC 12): the places' percentages, rounded down, the rest to first place."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.game.tournament.errors import InvalidTournament
from core.game.tournament.prizes import parse_split, prizes
from core.game.tournament.values import DEFAULT_SPLIT, MAX_PLACES


@st.composite
def splits(draw: st.DrawFn) -> tuple[int, ...]:
    places = draw(st.integers(1, MAX_PLACES))
    cuts = sorted(draw(st.sets(st.integers(1, 99), min_size=places - 1, max_size=places - 1)))
    shares = [b - a for a, b in zip([0, *cuts], [*cuts, 100], strict=True)]
    return tuple(sorted(shares, reverse=True))


@given(st.integers(0, 10**9), splits(), st.integers(1, 70))
def test_prizes_add_up_to_the_pot_best_place_first(pot: int, split: tuple[int, ...],
                                                   players: int) -> None:  # fmt: skip
    paid = prizes(pot, split, players)
    assert sum(paid) == pot
    assert len(paid) == min(len(split), players)
    assert list(paid) == sorted(paid, reverse=True)
    assert all(amount >= 0 for amount in paid)


def test_the_default_split_and_its_remainder() -> None:
    assert DEFAULT_SPLIT == (60, 30, 10)
    assert prizes(70, DEFAULT_SPLIT, 7) == (42, 21, 7)
    assert prizes(55, DEFAULT_SPLIT, 11) == (34, 16, 5)  # 33 + the 1 left over by rounding
    assert prizes(40, DEFAULT_SPLIT, 2) == (28, 12)  # third place's 10 % goes to first


@pytest.mark.parametrize("text", ["60/30", "30/60/10", "100/0", "abc", "50/50/", "", "101"])
def test_a_split_that_is_not_whole_percents_best_first_adding_to_100_is_refused(
    text: str,
) -> None:
    with pytest.raises(InvalidTournament) as caught:
        parse_split(text)
    assert caught.value.key == "error.tournament.split"


def test_a_split_is_written_with_slashes_dashes_or_commas() -> None:
    assert parse_split("50/30/20") == parse_split("50-30-20") == parse_split("50,30,20")
