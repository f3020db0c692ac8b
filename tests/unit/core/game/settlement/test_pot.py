"""Pot examples: antes, payouts, shuts, ties, the odd chip, refunds."""

from __future__ import annotations

from core.game.settlement import (
    Pot,
    Transfer,
    collect_antes,
    refund_pot,
    settle_pot_round,
)
from tests.unit.core.game.settlement.helpers import ANN, BEN, CAL, POT, net, play_pot_round

# --- pot examples ----------------------------------------------------------------------------


def test_every_player_antes_into_the_pot() -> None:
    """Before the round each player puts the ante into the pot."""
    pot, transfers = collect_antes(Pot(POT), [ANN, BEN], 10, {ANN: 100, BEN: 100})
    assert transfers == [Transfer(ANN, POT, 10), Transfer(BEN, POT, 10)]
    assert pot.contributions == ((ANN, 10), (BEN, 10))
    assert pot.total == 20


def test_a_short_player_antes_what_they_have() -> None:
    """Table stakes: a player with fewer chips than the ante puts in all they have, and no more."""
    pot, transfers = collect_antes(Pot(POT), [ANN, BEN, CAL], 10, {ANN: 100, BEN: 4, CAL: 0})
    assert transfers == [Transfer(ANN, POT, 10), Transfer(BEN, POT, 4)]
    assert pot.total == 14


def test_the_round_winner_takes_the_pot() -> None:
    """The winner gets every player's ante."""
    before = {ANN: 100, BEN: 100, CAL: 100, POT: 0}
    after, pot = play_pot_round(before, Pot(POT), [ANN, BEN, CAL], winners=[BEN])
    assert net(before, after) == {ANN: -10, BEN: 20, CAL: -10}
    assert pot.total == 0


def test_a_winner_who_shuts_the_box_is_paid_double() -> None:
    """On a shut every other player pays one more ante, so the winner wins twice as much."""
    before = {ANN: 100, BEN: 100, CAL: 100, POT: 0}
    after, _ = play_pot_round(before, Pot(POT), [ANN, BEN, CAL], winners=[ANN], shut_by=[ANN])
    assert net(before, after) == {ANN: 40, BEN: -20, CAL: -20}


def test_the_shut_double_is_capped_by_the_balance() -> None:
    """A loser who has spent everything on the ante pays nothing more on a shut."""
    before = {ANN: 100, BEN: 10, CAL: 15, POT: 0}
    after, _ = play_pot_round(before, Pot(POT), [ANN, BEN, CAL], winners=[ANN], shut_by=[ANN])
    assert net(before, after) == {ANN: 25, BEN: -10, CAL: -15}


def test_tied_winners_split_the_pot_and_the_odd_chip_stays() -> None:
    """Two winners split 15 chips 7 and 7; one chip stays in the pot, owed to the last payer."""
    before = {ANN: 100, BEN: 100, CAL: 100, POT: 0}
    after, pot = play_pot_round(before, Pot(POT), [ANN, BEN, CAL], winners=[ANN, BEN], ante=5)
    assert net(before, after) == {ANN: 2, BEN: 2, CAL: -5, POT: 1}
    assert pot.contributions == ((CAL, 1),)


def test_the_odd_chip_goes_to_the_next_round() -> None:
    """The chip left in the pot is won with the next round's pot."""
    before = {ANN: 100, BEN: 100, CAL: 100, POT: 0}
    players = [ANN, BEN, CAL]
    middle, pot = play_pot_round(before, Pot(POT), players, winners=[ANN, BEN], ante=5)
    after, pot = play_pot_round(middle, pot, players, winners=[CAL], ante=5)
    assert after[CAL] - middle[CAL] == 11
    assert pot.total == 0


def test_the_odd_chip_returns_to_its_payer_when_the_match_ends() -> None:
    """Refunding after a tied split gives the odd chip back to whoever paid it in."""
    before = {ANN: 100, BEN: 100, CAL: 100, POT: 0}
    _, pot = play_pot_round(before, Pot(POT), [ANN, BEN, CAL], winners=[ANN, BEN], ante=5)
    pot, refunds = refund_pot(pot)
    assert refunds == [Transfer(POT, CAL, 1)]
    assert pot == Pot(POT)


def test_a_bot_win_carries_the_pot_over() -> None:
    """When only a bot won (bots never win chips) the whole pot stays for the next round."""
    pot, _ = collect_antes(Pot(POT), [ANN, BEN], 10, {ANN: 50, BEN: 50})
    paid = settle_pot_round(pot, [], ["bot1"], [ANN, BEN], 10, {ANN: 40, BEN: 40})
    assert (paid.pot, paid.transfers) == (pot, [])


def test_stopping_refunds_every_payer() -> None:
    """A stopped match gives back what each player still has in the pot, one transfer each."""
    pot = Pot(POT, ((ANN, 10), (BEN, 10), (ANN, 10), (CAL, 3)))
    emptied, refunds = refund_pot(pot)
    assert refunds == [Transfer(POT, ANN, 20), Transfer(POT, BEN, 10), Transfer(POT, CAL, 3)]
    assert emptied.total == 0


def test_a_payout_takes_the_oldest_chips_first() -> None:
    """What a split leaves in the pot stays attributed to the most recent contributions."""
    pot = Pot(POT, ((ANN, 3), (BEN, 3), (CAL, 3)))
    paid = settle_pot_round(pot, [[ANN, BEN]], [], [ANN, BEN, CAL], 3, {})
    assert paid.pot.contributions == ((CAL, 1),)
