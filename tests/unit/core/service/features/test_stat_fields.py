"""A member's stored counters: a value that is not a whole number shows `—` in its own place."""

from __future__ import annotations

import pytest

from core.service.features.stat_fields import UNREADABLE, best, count, ratio


@pytest.mark.parametrize("stored", ["²", "٣", "x", " 3", "3_000"])
def test_a_counter_that_is_not_a_whole_number_shows_a_dash(stored: str) -> None:
    assert count({"games": stored}, "games") == UNREADABLE
    assert best({"best:t9": stored}, "best:t9") == UNREADABLE


def test_an_absent_counter_is_zero_and_an_absent_best_is_a_dash() -> None:
    assert count({}, "games") == 0 and count({"games": ""}, "games") == 0
    assert best({}, "best:t9") == UNREADABLE
    assert (count({"net": "-40"}, "net"), best({"b": "12"}, "b")) == (-40, 12)


def test_a_ratio_with_an_unreadable_side_is_a_dash() -> None:
    assert ratio(45, 10, "en") == "4.5" and ratio(9, 12, "da", scale=100) == "75,0"
    assert ratio(UNREADABLE, 10, "en") == ratio(45, UNREADABLE, "en") == UNREADABLE
    assert ratio(45, 0, "en") == UNREADABLE
