"""A wait is said as it is: hours and minutes, never rounded up to a whole day."""

from __future__ import annotations

import pytest

from core.text.i18n import relative_time


@pytest.mark.parametrize(
    ("lang", "seconds", "said"),
    [
        ("en", 59, "in 59 seconds"),
        ("en", 600, "in 10 minutes"),
        ("en", 3600, "in 1 hour"),
        ("en", 24 * 3600 - 25 * 60, "in 23 hours and 35 minutes"),
        ("da", 24 * 3600 - 25 * 60, "om 23 timer og 35 minutter"),
        ("nb", 5400, "om 1 time og 30 minutter"),
    ],
)
def test_a_wait_is_said_in_hours_and_minutes(lang: str, seconds: float, said: str) -> None:
    assert relative_time(lang, seconds) == said
