"""Chip settlement (SPEC section 4): examples that read like the spec, then properties."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from core.game.errors import InsufficientChips, InvalidOption
from core.game.settlement import (
    Pot,
    Transfer,
    apply_transfers,
    collect_antes,
    deltas,
    refund_pot,
    settle_canoga,
    settle_pot_round,
)

POT = "pot:C1"
ANN, BEN, CAL, DAN = "u1", "u2", "u3", "u4"


def play_pot_round(
    balances: dict[str, int],
    pot: Pot,
    players: Sequence[str],
    winners: Sequence[str],
    shut_by: Sequence[str] = (),
    ante: int = 10,
) -> tuple[dict[str, int], Pot]:
    """Antes, then the round's settlement, applied to balances that include the pot's account."""
    pot, antes = collect_antes(pot, players, ante, balances)
    balances = apply_transfers(balances, antes)
    others = [player for player in players if player not in winners]
    paid = settle_pot_round(pot, [winners, others], shut_by, players, ante, balances)
    return apply_transfers(balances, paid.transfers), paid.pot


def net(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """Each account's change, zeros left out."""
    changes = {a: after.get(a, 0) - before.get(a, 0) for a in before.keys() | after.keys()}
    return {account: change for account, change in changes.items() if change}


# --- transfers -------------------------------------------------------------------------------


def test_a_transfer_moves_a_positive_amount() -> None:
    """Zero or negative transfers cannot be made."""
    with pytest.raises(ValueError, match="positive"):
        Transfer(ANN, BEN, 0)


def test_deltas_net_out_per_account() -> None:
    """Deltas sum each account's ins and outs, and sum to zero."""
    transfers = [Transfer(ANN, POT, 10), Transfer(BEN, POT, 10), Transfer(POT, ANN, 20)]
    assert deltas(transfers) == {ANN: 10, POT: 0, BEN: -10}


def test_applying_an_overdraft_is_refused() -> None:
    """No transfer may take a balance below 0."""
    with pytest.raises(InsufficientChips):
        apply_transfers({ANN: 5}, [Transfer(ANN, BEN, 6)])


@pytest.mark.parametrize("stake", [0, -5])
def test_a_stake_must_be_positive(stake: int) -> None:
    """Antes and chips per point below 1 are refused."""
    with pytest.raises(InvalidOption):
        collect_antes(Pot(POT), [ANN], stake, {ANN: 100})
    with pytest.raises(InvalidOption):
        settle_canoga({ANN: 0, BEN: 5}, [ANN], False, stake, {BEN: 100})


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


# --- properties ------------------------------------------------------------------------------

PLAYER_IDS = [f"u{n}" for n in range(6)]

players_st = st.lists(st.sampled_from(PLAYER_IDS), min_size=1, max_size=6, unique=True)
balance_st = st.integers(min_value=0, max_value=300)
stake_st = st.integers(min_value=1, max_value=40)


@st.composite
def pot_tables(draw: st.DrawFn) -> tuple[list[str], dict[str, int], Pot]:
    """Players, their balances (plus the pot's), and a pot carried over from earlier rounds."""
    players = draw(players_st)
    balances = {player: draw(balance_st) for player in players}
    carried = draw(st.lists(st.tuples(st.sampled_from(players), st.integers(1, 20)), max_size=4))
    pot = Pot(POT)
    for payer, amount in carried:
        pot = pot.add(payer, amount)
    return players, {**balances, POT: pot.total}, pot


def check_pot(pot: Pot, balances: dict[str, int]) -> None:
    """The pot's ledger holds positive entries that add up to its account's balance."""
    assert all(amount > 0 for _, amount in pot.contributions)
    assert pot.total == balances[POT]


@given(table=pot_tables(), ante=stake_st)
def test_antes_conserve_chips_and_respect_table_stakes(
    table: tuple[list[str], dict[str, int], Pot], ante: int
) -> None:
    """Each player antes min(ante, balance); chips are conserved and nobody goes below 0."""
    players, balances, pot = table
    new_pot, transfers = collect_antes(pot, players, ante, balances)
    after = apply_transfers(balances, transfers)
    assert sum(deltas(transfers).values()) == 0
    assert sum(after.values()) == sum(balances.values())
    assert all(after[p] == balances[p] - min(ante, balances[p]) for p in players)
    check_pot(new_pot, after)


def _settled(
    table: tuple[list[str], dict[str, int], Pot], ante: int, winner_count: int, shut: bool
) -> tuple[list[str], dict[str, int], Pot, list[Transfer], Pot]:
    """Antes, then a round won by the first `winner_count` players (the rest ranked in order)."""
    players, balances, pot = table
    winners = players[:winner_count]
    ranking = [winners, *([p] for p in players[winner_count:])] if winners else []
    pot, antes = collect_antes(pot, players, ante, balances)
    after_antes = apply_transfers(balances, antes)
    paid = settle_pot_round(pot, ranking, winners[:1] if shut else [], players, ante, after_antes)
    return players, after_antes, pot, paid.transfers, paid.pot


@given(
    table=pot_tables(),
    ante=stake_st,
    winner_count=st.integers(min_value=0, max_value=3),
    shut=st.booleans(),
)
def test_a_pot_round_conserves_chips_and_leaves_only_odd_chips(
    table: tuple[list[str], dict[str, int], Pot], ante: int, winner_count: int, shut: bool
) -> None:
    """Chips are conserved; with every player ranked, what stays in the pot is odd chips only
    (fewer than one per winner, and the table has at most six players to a layer)."""
    assume(not (shut and winner_count > 1))  # a shut ends the round at once: nobody ties it
    players, after_antes, pot, transfers, new_pot = _settled(table, ante, winner_count, shut)
    after = apply_transfers(after_antes, transfers)
    assert sum(after.values()) == sum(table[1].values())
    check_pot(new_pot, after)
    paid_in = sum(t.amount for t in transfers if t.target == POT)
    if not players[:winner_count]:
        assert new_pot == pot and not transfers
    elif len({pot.by_payer().get(p, 0) for p in players}) == 1:
        assert new_pot.total == (pot.total + paid_in) % min(winner_count, len(players))


@given(table=pot_tables(), ante=stake_st, winner_count=st.integers(min_value=1, max_value=3))
def test_a_shut_makes_every_loser_pay_one_more_of_the_shutters_stake(
    table: tuple[list[str], dict[str, int], Pot], ante: int, winner_count: int
) -> None:
    """On a shut each non-winner pays min(ante, what the shutter has in the pot, balance) more
    into the pot; winners pay nothing more."""
    players, after_antes, pot, transfers, _ = _settled(table, ante, winner_count, True)
    winners = players[:winner_count]
    stake = min(ante, pot.by_payer().get(winners[0], 0))
    paid = deltas(t for t in transfers if t.target == POT)
    losers = [p for p in players if p not in winners]
    assert all(paid.get(p, 0) == -min(stake, after_antes[p]) for p in losers)
    assert all(w not in paid for w in winners)


@given(table=pot_tables(), ante=stake_st, winner_count=st.integers(min_value=1, max_value=3))
def test_tied_pot_winners_who_paid_the_same_get_equal_shares(
    table: tuple[list[str], dict[str, int], Pot], ante: int, winner_count: int
) -> None:
    """Tied winners with the same chips in the pot receive the same amount from it."""
    players, _, pot, transfers, _ = _settled(table, ante, winner_count, False)
    winners = players[:winner_count]
    shares = {t.target: t.amount for t in transfers if t.source == POT}
    if len({pot.by_payer().get(w, 0) for w in winners}) == 1:
        assert len({shares.get(w, 0) for w in winners}) == 1


@given(table=pot_tables(), ante=stake_st)
def test_nobody_wins_more_from_a_player_than_they_risked(
    table: tuple[list[str], dict[str, int], Pot], ante: int
) -> None:
    """A lone winner takes from each other payer at most what the winner has in the pot."""
    players, _, pot, transfers, _ = _settled(table, ante, 1, False)
    winner, paid = players[0], pot.by_payer()
    cap = sum(min(paid.get(winner, 0), chips) for chips in paid.values())
    won = sum(t.amount for t in transfers if t.source == POT and t.target == winner)
    assert won == cap


@given(table=pot_tables())
def test_a_refund_returns_exactly_what_each_payer_has_in_the_pot(
    table: tuple[list[str], dict[str, int], Pot],
) -> None:
    """Refunds empty the pot and give every payer back their contributions."""
    _, balances, pot = table
    emptied, refunds = refund_pot(pot)
    after = apply_transfers(balances, refunds)
    assert emptied.total == 0 and after[POT] == 0
    owed = deltas(Transfer(POT, payer, amount) for payer, amount in pot.contributions)
    assert deltas(refunds) == owed


@st.composite
def canoga_tables(draw: st.DrawFn) -> tuple[dict[str, int], list[str], dict[str, int]]:
    """Scores, the tied winners (everyone with the lowest score) and the balances."""
    players = draw(st.lists(st.sampled_from(PLAYER_IDS), min_size=2, max_size=6, unique=True))
    scores = {player: draw(st.integers(min_value=0, max_value=45)) for player in players}
    best = min(scores.values())
    winners = [player for player in players if scores[player] == best]
    return scores, winners, {player: draw(balance_st) for player in players}


@given(table=canoga_tables(), shut=st.booleans(), per_point=stake_st)
def test_canoga_payments_never_exceed_balances(
    table: tuple[dict[str, int], list[str], dict[str, int]], shut: bool, per_point: int
) -> None:
    """No loser pays more than they have; chips are conserved; only losers pay, only winners get."""
    scores, winners, balances = table
    transfers = settle_canoga(scores, winners, shut, per_point, balances)
    after = apply_transfers(balances, transfers)
    assert sum(after.values()) == sum(balances.values())
    assert all(t.source not in winners and t.target in winners for t in transfers)


@given(table=canoga_tables(), shut=st.booleans(), per_point=stake_st)
def test_canoga_losers_pay_the_difference_split_among_tied_winners(
    table: tuple[dict[str, int], list[str], dict[str, int]], shut: bool, per_point: int
) -> None:
    """Each loser pays min(difference x K x double, balance), rounded down to split evenly."""
    scores, winners, balances = table
    transfers = settle_canoga(scores, winners, shut, per_point, balances)
    best = scores[winners[0]]
    for loser in (p for p in scores if p not in winners):
        owed = min((scores[loser] - best) * per_point * (2 if shut else 1), balances[loser])
        payments = [t.amount for t in transfers if t.source == loser]
        assert sum(payments) == owed // len(winners) * len(winners)
        assert len(set(payments)) <= 1


@given(table=canoga_tables(), per_point=stake_st)
def test_a_canoga_shut_doubles_payments_when_losers_can_afford_it(
    table: tuple[dict[str, int], list[str], dict[str, int]], per_point: int
) -> None:
    """With deep pockets and one winner, every payment on a shut is exactly twice the plain one."""
    scores, winners, _ = table
    rich = dict.fromkeys(scores, 10**6)
    plain = settle_canoga(scores, winners[:1], False, per_point, rich)
    doubled = settle_canoga(scores, winners[:1], True, per_point, rich)
    assert [(t.source, t.target, 2 * t.amount) for t in plain] == [
        (t.source, t.target, t.amount) for t in doubled
    ]
