"""Four players, a pot, and a pot round played from antes to payment."""

from __future__ import annotations

from collections.abc import Sequence

from core.game.settlement import (
    Pot,
    apply_transfers,
    collect_antes,
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
