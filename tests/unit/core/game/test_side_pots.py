"""All in (SPEC 4): a player wins from each other at most what they paid in, as side pots do."""

from __future__ import annotations

from core.game.settlement import Pot, Transfer, settle_pot_round
from core.game.side_pots import AllIn, layers

POT = "pot:C1"
ANN, BOB, CID, ROOT = "ann", "bob", "cid", "root"


def pot_of(*paid: tuple[str, int]) -> Pot:
    pot = Pot(POT)
    for payer, amount in paid:
        pot = pot.add(payer, amount)
    return pot


def test_an_all_in_winner_takes_what_they_risked_from_each_and_the_rest_goes_back() -> None:
    """Ann antes her last 38 of a 50 ante and wins: 38 from Root and her own 38; Root's other
    12 go to Root, the only player who paid more."""
    paid = settle_pot_round(pot_of((ANN, 38), (ROOT, 50)), [[ANN], [ROOT]], [], [ANN, ROOT], 50, {})
    assert paid.transfers == [Transfer(POT, ANN, 76), Transfer(POT, ROOT, 12)]
    assert paid.pot.total == 0
    assert paid.all_in == (AllIn(ANN, 38, 76, 12, (ROOT,)),)


def test_a_winner_who_paid_nothing_wins_nothing() -> None:
    """Ann had no chips left for the ante: the pot goes to the best of those who paid."""
    paid = settle_pot_round(pot_of((ROOT, 50)), [[ANN], [ROOT]], [], [ANN, ROOT], 50, {})
    assert paid.transfers == [Transfer(POT, ROOT, 50)]
    assert paid.all_in == (AllIn(ANN, 0, 0, 50, (ROOT,)),)


def test_side_pots_go_down_the_ranking_recursively() -> None:
    """Ann (10) wins 10 from each; Bob (30) comes second and wins 20 more from Cid and his
    own; Cid (50) gets back the 20 nobody else could win."""
    pot = pot_of((ANN, 10), (BOB, 30), (CID, 50))
    paid = settle_pot_round(pot, [[ANN], [BOB], [CID]], [], [ANN, BOB, CID], 50, {})
    assert paid.transfers == [
        Transfer(POT, ANN, 30), Transfer(POT, BOB, 40), Transfer(POT, CID, 20),
    ]  # fmt: skip
    assert paid.all_in == (AllIn(ANN, 10, 30, 60, (BOB, CID)), AllIn(BOB, 30, 40, 20, (CID,)))


def test_tied_winners_split_each_layer_they_reach() -> None:
    """Ann (20) and Bob (50) tie: they split the 60 of the first layer; the second (Bob's and
    Cid's other 30 each) is Bob's alone."""
    pot = pot_of((ANN, 20), (BOB, 50), (CID, 50))
    paid = settle_pot_round(pot, [[ANN, BOB], [CID]], [], [ANN, BOB, CID], 50, {})
    assert paid.transfers == [Transfer(POT, ANN, 30), Transfer(POT, BOB, 90)]
    assert paid.all_in == (AllIn(ANN, 20, 30, 60, (BOB,)),)


def test_the_odd_chip_of_a_layer_stays_for_the_next_round() -> None:
    """Three chips a player, two tied winners: 9 split 4 and 4, the odd one stays in the pot."""
    pot = pot_of((ANN, 3), (BOB, 3), (CID, 3))
    paid = settle_pot_round(pot, [[ANN, BOB], [CID]], [], [ANN, BOB, CID], 3, {})
    assert paid.transfers == [Transfer(POT, ANN, 4), Transfer(POT, BOB, 4)]
    assert paid.pot.contributions == ((CID, 1),)
    assert paid.all_in == ()


def test_an_all_in_shutter_is_paid_double_their_own_stake() -> None:
    """Ann shuts with 38 in: Root adds one more 38 (not 50), and gets back his other 12."""
    pot = pot_of((ANN, 38), (ROOT, 50))
    paid = settle_pot_round(pot, [[ANN], [ROOT]], [ANN], [ANN, ROOT], 50, {ROOT: 100})
    assert paid.transfers == [
        Transfer(ROOT, POT, 38), Transfer(POT, ANN, 114), Transfer(POT, ROOT, 12),
    ]  # fmt: skip
    assert paid.pot.total == 0


def test_a_full_shutter_is_paid_a_full_extra_ante() -> None:
    pot = pot_of((ANN, 50), (ROOT, 50))
    paid = settle_pot_round(pot, [[ANN], [ROOT]], [ANN], [ANN, ROOT], 50, {ROOT: 100})
    assert paid.transfers == [Transfer(ROOT, POT, 50), Transfer(POT, ANN, 150)]
    assert paid.all_in == ()


def test_chips_of_a_player_who_left_are_won_up_to_each_winners_level() -> None:
    """Bob left with 50 in the pot; Ann (20) wins 20 of his, Root (50) the other 30."""
    pot = pot_of((BOB, 50), (ANN, 20), (ROOT, 50))
    cut = layers(pot.by_payer(), [[ANN], [ROOT]])
    assert [(layer.level, layer.amount, layer.winners) for layer in cut] == [
        (20, 60, (ANN,)), (50, 60, (ROOT,)),
    ]  # fmt: skip


def test_chips_no_player_reaches_stay_in_the_pot() -> None:
    """Chips above every remaining player's level (a leaver's) stay for the next round."""
    pot = pot_of((BOB, 60), (ANN, 20))
    paid = settle_pot_round(pot, [[ANN]], [], [ANN], 50, {})
    assert paid.transfers == [Transfer(POT, ANN, 40)]
    assert paid.pot.by_payer() == {BOB: 40}
    assert paid.all_in == (AllIn(ANN, 20, 40, 40, ()),)
