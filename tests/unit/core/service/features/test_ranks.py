"""A player's place on a board: ties share a place, lower is better for scores."""

from __future__ import annotations

from core.service.features.ranks import position

ROWS = [("ann", 5.0), ("bob", 3.0), ("cid", 3.0), ("dan", 1.0)]


def test_ties_share_a_place() -> None:
    assert [position(ROWS, user, "wins") for user in ("ann", "bob", "cid", "dan")] == [1, 2, 2, 4]


def test_lower_is_better_on_score_boards() -> None:
    assert position(ROWS, "dan", "average") == 1 and position(ROWS, "ann", "best") == 4


def test_a_player_not_on_the_board_has_no_place() -> None:
    assert position(ROWS, "eve", "wins") is None
