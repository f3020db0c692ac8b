"""Transfers: positive amounts, netted per account, never an overdraft."""

from __future__ import annotations

import pytest

from core.game.errors import InsufficientChips, InvalidOption
from core.game.settlement import (
    Pot,
    Transfer,
    apply_transfers,
    collect_antes,
    deltas,
    settle_canoga,
)
from tests.unit.core.game.settlement.helpers import ANN, BEN, POT

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
