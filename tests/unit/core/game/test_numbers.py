"""Whole numbers typed by people: only ASCII digits are digits."""

from __future__ import annotations

import pytest

from core.game.numbers import is_digits


@pytest.mark.parametrize("text", ["²", "①", "٣", "1²", "", "-1", " 1"])
def test_only_ascii_digits_are_digits(text: str) -> None:
    """`is_digits` takes what `int()` reads as a plain number, nothing `isdigit()` adds."""
    assert not is_digits(text)


def test_ascii_digits_are_digits() -> None:
    """A run of ASCII digits is digits."""
    assert is_digits("0") and is_digits("2026")
