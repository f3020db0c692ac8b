"""Canoga properties: payments stay within balances and split among tied winners."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.game.settlement import (
    apply_transfers,
    settle_canoga,
)
from tests.unit.core.game.settlement.strategies import PLAYER_IDS, balance_st, stake_st


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
