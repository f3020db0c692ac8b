"""Whole numbers typed by people: only ASCII digits are digits."""

from __future__ import annotations

import pytest

from core.game.numbers import is_digits, stored_int


@pytest.mark.parametrize("text", ["²", "①", "٣", "1²", "", "-1", " 1"])
def test_only_ascii_digits_are_digits(text: str) -> None:
    """`is_digits` takes what `int()` reads as a plain number, nothing `isdigit()` adds."""
    assert not is_digits(text)


def test_ascii_digits_are_digits() -> None:
    """A run of ASCII digits is digits."""
    assert is_digits("0") and is_digits("2026")


@pytest.mark.parametrize(
    "text", ["²", "٣", "1²", "", " 3", "3_000", "+3", "1.0", "x", "1" * 17, "007", "-0", "--1"]
)
def test_a_stored_number_is_ascii_digits_or_nothing(text: str) -> None:
    """A stored value `int()` would read differently, or refuse with a ValueError, is None; so
    is one Redis's HINCRBY and the commit script refuse (a leading zero, `-0`), so both sides
    read a stored number by one rule."""
    assert stored_int(text) is None


def test_stored_whole_numbers_read_back() -> None:
    assert (stored_int("0"), stored_int("-12"), stored_int("1000000000000")) == (0, -12, 10**12)
