"""The tournaments page's figures are the code's own (docs/play/tournaments.md)."""

from __future__ import annotations

from pathlib import Path

from core.game.tournament.layout import table_sizes
from core.game.tournament.standings import BYE_POINTS, SHARED_WIN_POINTS, WIN_POINTS
from core.game.tournament.values import DEFAULT_SPLIT, Settings

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "play" / "tournaments.md").read_text()


def test_the_page_states_the_defaults_the_code_uses() -> None:
    defaults = Settings("Cup")
    assert "/".join(map(str, DEFAULT_SPLIT)) == "60/30/10"
    assert "Swiss over 3 rounds" in PAGE and defaults.rounds == 3
    assert "tables of 2" in PAGE and defaults.table_size == 2
    assert "prizes 60/30/10" in PAGE


def test_the_page_states_the_points_and_the_seven_player_example() -> None:
    assert (WIN_POINTS, SHARED_WIN_POINTS, BYE_POINTS) == (2, 1, 2)
    assert "winner scores 2 points, tied winners 1 each, a bye 2" in PAGE
    assert table_sizes(7, 3) == ((3, 3), True)
    assert "Seven players at tables of 3 play 3 + 3 and one\n  has a bye" in PAGE


def test_the_page_states_the_search_budget() -> None:
    from core.game.tournament.swiss import SEARCH_BUDGET

    assert f"{SEARCH_BUDGET:,} tables a round" in PAGE


def test_the_page_quotes_the_knockout_standings_as_the_bot_writes_them() -> None:
    from core.text.i18n import t

    for key in ("in", "champion"):
        assert f"`{t('en', f'tournament.knockout.{key}')}`" in PAGE
    assert f"`{t('en', 'tournament.knockout.out', round=2, table=1, score=23)}`" in PAGE
    tied = t("en", "tournament.knockout.out_tied", round=2, table=1, score=23)
    assert f"`{tied.split('(')[1].rstrip(')')}`" in PAGE


def test_the_page_quotes_the_playgrounds_table_line_as_it_reads() -> None:
    from core.text.i18n import t

    title = t("en", "tournament.table.title", name="Friday cup", n=1, table=2, names="Ann, Bob")
    assert f"`{t('en', 'playground.table.open', title=title)}`" in PAGE
