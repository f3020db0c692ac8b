"""Pure chip settlement (SPEC section 4): antes, pots, the shut-the-box double and Canoga payments.

Every function returns transfers between accounts (player ids and the pot's account); chips are
never created or destroyed, and no payment exceeds the payer's balance (table stakes: a player
pays what they have). A balance missing from `balances` counts as 0.

Pot attribution: the pot remembers its contributions in the order they were paid, and a payout
takes the oldest chips first. So the odd chips a tied split leaves behind stay attributed to the
most recent payers (the last antes of that round), and `refund_pot` returns them to those players.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from core.game.errors import InsufficientChips, InvalidOption

SHUT_MULTIPLIER = 2


@dataclass(frozen=True, slots=True)
class Transfer:
    """`amount` chips (always positive) moving from `source` to `target`."""

    source: str
    target: str
    amount: int

    def __post_init__(self) -> None:
        if self.amount <= 0:
            raise ValueError(f"a transfer moves a positive number of chips, not {self.amount}")


def deltas(transfers: Iterable[Transfer]) -> dict[str, int]:
    """Net change per account (every account touched, in first-touched order); sums to zero."""
    totals: dict[str, int] = {}
    for transfer in transfers:
        totals[transfer.source] = totals.get(transfer.source, 0) - transfer.amount
        totals[transfer.target] = totals.get(transfer.target, 0) + transfer.amount
    return totals


def apply_transfers(balances: Mapping[str, int], transfers: Iterable[Transfer]) -> dict[str, int]:
    """The balances after the transfers, in order; refuses any that would go below 0."""
    result = dict(balances)
    for transfer in transfers:
        if result.get(transfer.source, 0) < transfer.amount:
            raise InsufficientChips(account=transfer.source, amount=transfer.amount)
        result[transfer.source] = result.get(transfer.source, 0) - transfer.amount
        result[transfer.target] = result.get(transfer.target, 0) + transfer.amount
    return result


@dataclass(frozen=True, slots=True)
class Pot:
    """The chips in the pot, as (payer, amount) in the order they were paid in."""

    account: str
    contributions: tuple[tuple[str, int], ...] = ()

    @property
    def total(self) -> int:
        return sum(amount for _, amount in self.contributions)

    def add(self, payer: str, amount: int) -> Pot:
        """The pot with `amount` more from `payer` (merged into the last entry if it is theirs)."""
        entries = list(self.contributions)
        if entries and entries[-1][0] == payer:
            amount += entries.pop()[1]
        return replace(self, contributions=(*entries, (payer, amount)))

    def take_oldest(self, amount: int) -> Pot:
        """The pot with `amount` chips removed, oldest contributions first."""
        kept: list[tuple[str, int]] = []
        for payer, chips in self.contributions:
            taken = min(chips, amount)
            amount -= taken
            if chips > taken:
                kept.append((payer, chips - taken))
        return replace(self, contributions=tuple(kept))


def _check_stake(amount: int) -> None:
    if amount < 1:
        raise InvalidOption(stake=amount)


def _unique(accounts: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(accounts))


def _available(balances: Mapping[str, int], account: str) -> int:
    return max(0, balances.get(account, 0))


def _pay_into(
    pot: Pot, payers: Iterable[str], ante: int, balances: Mapping[str, int]
) -> tuple[Pot, list[Transfer]]:
    """Each payer puts `ante` (or all they have, if less) into the pot."""
    transfers: list[Transfer] = []
    for payer in payers:
        amount = min(ante, _available(balances, payer))
        if amount:
            transfers.append(Transfer(payer, pot.account, amount))
            pot = pot.add(payer, amount)
    return pot, transfers


def collect_antes(
    pot: Pot, players: Sequence[str], ante: int, balances: Mapping[str, int]
) -> tuple[Pot, list[Transfer]]:
    """Every player antes before a round; a player short of chips antes what they have."""
    _check_stake(ante)
    return _pay_into(pot, _unique(players), ante, balances)


def _pay_out(pot: Pot, winners: Sequence[str]) -> tuple[Pot, list[Transfer]]:
    """Winners split the pot evenly; the odd chips stay in it."""
    share = pot.total // len(winners)
    if not share:
        return pot, []
    payouts = [Transfer(pot.account, winner, share) for winner in winners]
    return pot.take_oldest(share * len(winners)), payouts


def settle_pot_round(
    pot: Pot,
    winners: Sequence[str],
    shut_by: Sequence[str],
    players: Sequence[str],
    ante: int,
    balances: Mapping[str, int],
) -> tuple[Pot, list[Transfer]]:
    """Pay out a round's pot; a winner who shut the box is paid double (one more ante each).

    `winners` are the chip-winning winners (never bots); with none the pot carries over whole.
    `balances` are those after the antes.
    """
    _check_stake(ante)
    paid = _unique(winners)
    if not paid:
        return pot, []
    extra: list[Transfer] = []
    if set(paid) & set(shut_by):
        losers = [player for player in _unique(players) if player not in paid]
        pot, extra = _pay_into(pot, losers, ante, balances)
    pot, payouts = _pay_out(pot, paid)
    return pot, extra + payouts


def refund_pot(pot: Pot) -> tuple[Pot, list[Transfer]]:
    """The match ended or stopped: what is in the pot goes back to whoever put it there."""
    owed: dict[str, int] = {}
    for payer, amount in pot.contributions:
        owed[payer] = owed.get(payer, 0) + amount
    refunds = [Transfer(pot.account, payer, amount) for payer, amount in owed.items()]
    return replace(pot, contributions=()), refunds


def _winning_score(scores: Mapping[str, int], winners: Sequence[str]) -> int:
    """The score the tied winners share."""
    found = {scores.get(winner, -1) for winner in winners}
    if len(found) != 1 or -1 in found:
        raise ValueError(f"winners {winners} must all have the same score in {dict(scores)}")
    return found.pop()


def _split_payment(payer: str, winners: Sequence[str], amount: int) -> list[Transfer]:
    """`amount` split evenly among the winners; the odd chips stay with the payer."""
    share = amount // len(winners)
    return [Transfer(payer, winner, share) for winner in winners] if share else []


def settle_canoga(
    scores: Mapping[str, int],
    winners: Sequence[str],
    shut: bool,
    per_point: int,
    balances: Mapping[str, int],
) -> list[Transfer]:
    """Every loser pays the winners the score difference times `per_point`, doubled on a shut.

    `winners` are the chip-winning winners (never bots); a loser is anyone else with a score.
    Tied winners share each loser's payment, which is capped at the loser's balance.
    """
    _check_stake(per_point)
    paid = _unique(winners)
    if not paid:
        return []
    best = _winning_score(scores, paid)
    factor = per_point * (SHUT_MULTIPLIER if shut else 1)
    transfers: list[Transfer] = []
    for loser in (player for player in scores if player not in paid):
        owed = max(0, scores[loser] - best) * factor
        transfers += _split_payment(loser, paid, min(owed, _available(balances, loser)))
    return transfers
