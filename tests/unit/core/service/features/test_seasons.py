"""When a season is over by `season_days`, and how a board button names an archived season."""

from __future__ import annotations

import pytest

from core.game.errors import InvalidOption
from core.service.features.boards import board_of, page_buttons
from core.service.features.seasons import DAY, Season, over
from core.service.model.settings import ServerConfig


def test_a_season_is_over_once_its_days_have_passed() -> None:
    season = Season(1, start=1_000)
    assert not over(season, 7, 1_000 + 7 * DAY - 1)
    assert over(season, 7, 1_000 + 7 * DAY)


def test_season_days_zero_leaves_the_season_to_an_admin() -> None:
    assert not over(Season(3, start=0), 0, 10_000 * DAY)


def test_season_days_is_a_setting_from_0_to_ten_years() -> None:
    assert ServerConfig().season_days == 0
    assert ServerConfig().updated("season_days", "30").season_days == 30
    with pytest.raises(InvalidOption) as refused:
        ServerConfig().updated("season_days", "-1")
    assert refused.value.key == "error.config.range"


def test_a_board_button_carries_the_archived_season_and_the_preset() -> None:
    """Next on Season 3's sailors board comes back as (sailors, 3); a current board as None."""
    (row,) = page_buttons("wins", "sailors", 0, 2, "en", season=3)
    number = int(row[0].action_id.split(":")[3])
    assert board_of(number) == ("sailors", 3)
    (current,) = page_buttons("wins", None, 0, 2, "en")
    assert board_of(int(current[0].action_id.split(":")[3])) == (None, None)
