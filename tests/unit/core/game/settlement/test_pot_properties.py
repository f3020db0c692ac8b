"""Pot properties: chips are conserved and nobody pays more than they risked."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from core.game.settlement import (
    Pot,
    Transfer,
    apply_transfers,
    collect_antes,
    deltas,
    refund_pot,
    settle_pot_round,
)
from tests.unit.core.game.settlement.helpers import POT
from tests.unit.core.game.settlement.strategies import balance_st, players_st, stake_st


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
