"""Canoga examples: each loser pays each winner the difference."""

from __future__ import annotations

import pytest

from core.game.settlement import (
    Transfer,
    settle_canoga,
)
from tests.unit.core.game.settlement.helpers import ANN, BEN, CAL, DAN

# --- canoga examples -------------------------------------------------------------------------


def test_each_loser_pays_the_winner_the_difference() -> None:
    """Losers pay the difference between their score and the winner's."""
    transfers = settle_canoga({ANN: 4, BEN: 10, CAL: 22}, [ANN], False, 1, {BEN: 99, CAL: 99})
    assert transfers == [Transfer(BEN, ANN, 6), Transfer(CAL, ANN, 18)]


def test_chips_per_point_multiply_the_difference() -> None:
    """With canoga:K every point of difference costs K chips."""
    transfers = settle_canoga({ANN: 4, BEN: 10}, [ANN], False, 3, {BEN: 99})
    assert transfers == [Transfer(BEN, ANN, 18)]


def test_a_canoga_shut_doubles_every_payment() -> None:
    """If the winner shut the box, every payment doubles."""
    transfers = settle_canoga({ANN: 0, BEN: 10, CAL: 7}, [ANN], True, 1, {BEN: 99, CAL: 99})
    assert transfers == [Transfer(BEN, ANN, 20), Transfer(CAL, ANN, 14)]


def test_tied_canoga_winners_share_each_payment() -> None:
    """Tied winners split each loser's payment; an odd chip stays with the loser."""
    transfers = settle_canoga({ANN: 5, BEN: 5, CAL: 12}, [ANN, BEN], False, 1, {CAL: 99})
    assert transfers == [Transfer(CAL, ANN, 3), Transfer(CAL, BEN, 3)]


def test_a_canoga_loser_pays_at_most_what_they_have() -> None:
    """A loser short of chips pays their whole balance, split fairly among the winners."""
    scores = {ANN: 2, BEN: 2, CAL: 30}
    transfers = settle_canoga(scores, [ANN, BEN], True, 1, {CAL: 9})
    assert transfers == [Transfer(CAL, ANN, 4), Transfer(CAL, BEN, 4)]


def test_a_bot_canoga_win_moves_no_chips() -> None:
    """With no chip-winning winner (a bot won) nobody pays."""
    assert settle_canoga({"bot1": 3, ANN: 10}, [], False, 1, {ANN: 99}) == []


def test_canoga_winners_must_share_one_score() -> None:
    """Winners with different scores (or no score) are a caller bug."""
    with pytest.raises(ValueError, match="same score"):
        settle_canoga({ANN: 3, BEN: 4, CAL: 9}, [ANN, BEN], False, 1, {CAL: 99})
    with pytest.raises(ValueError, match="same score"):
        settle_canoga({ANN: 3, CAL: 9}, [ANN, DAN], False, 1, {CAL: 99})
