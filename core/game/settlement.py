"""Pure chip settlement (SPEC section 4): antes, pots, the shut-the-box double and Canoga payments.

Every function returns transfers between accounts (player ids and the pot's account); chips are
never created or destroyed, and no payment exceeds the payer's balance (table stakes: a player
pays what they have). A balance missing from `balances` counts as 0.

Pot attribution: the pot remembers its contributions in the order they were paid, and a payout
takes each payer's oldest chips first. So the odd chips a tied split leaves behind stay
attributed to the most recent payers (the last antes of that round), and `refund_pot` returns
them to those players. Who may win which chips is `side_pots` (all in, SPEC 4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from core.game.errors import InsufficientChips, InvalidOption
from core.game.match import FormatKind, MatchConfig, StakesKind
from core.game.side_pots import AllIn, Layer, Ranking, all_ins, layers, winnings

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

    def by_payer(self) -> dict[str, int]:
        """What each payer has in the pot, in the order they first paid."""
        owed: dict[str, int] = {}
        for payer, amount in self.contributions:
            owed[payer] = owed.get(payer, 0) + amount
        return owed

    def without(self, taken: Mapping[str, int]) -> Pot:
        """The pot with `taken[payer]` of each payer's chips removed, their oldest first."""
        left = dict(taken)
        kept: list[tuple[str, int]] = []
        for payer, chips in self.contributions:
            part = min(chips, left.get(payer, 0))
            left[payer] = left.get(payer, 0) - part
            if chips > part:
                kept.append((payer, chips - part))
        if any(left.values()):
            raise ValueError(f"the pot does not hold {dict(taken)}")
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


@dataclass(frozen=True, slots=True)
class PotPayout:
    """A pot round settled: the pot left, the transfers, and who was all in (for the summary)."""

    pot: Pot
    transfers: list[Transfer]
    all_in: tuple[AllIn, ...] = ()


def _kept_back(slices: Sequence[tuple[str, int]], paid_out: int) -> dict[str, int]:
    """Which payers' chips a payout of `paid_out` from these slices takes, oldest first: the
    odd chips of a split stay attributed to the latest payers."""
    taken: dict[str, int] = {}
    for payer, chips in slices:
        part = min(chips, paid_out)
        paid_out -= part
        if part:
            taken[payer] = taken.get(payer, 0) + part
    return taken


def _pay_layers(
    pot: Pot, cut: Sequence[Layer], extra: Mapping[str, int], shutters: Sequence[str]
) -> tuple[Pot, list[Transfer]]:
    """Pay each layer to its winners and the shut's extra antes to the shutters (an even split
    each; the odd chips stay in the pot), one payout per winner."""
    won, taken = dict(winnings(cut)), Counter[str]()
    for layer in cut:
        taken.update(_kept_back(layer.taken, layer.share * len(layer.winners)))
    share = sum(extra.values()) // len(shutters) if shutters else 0
    for shutter in shutters if share else ():
        won[shutter] = won.get(shutter, 0) + share
    taken.update(_kept_back(tuple(extra.items()), share * len(shutters)))
    payouts = [Transfer(pot.account, winner, amount) for winner, amount in won.items() if amount]
    return pot.without(taken), payouts


def settle_pot_round(
    pot: Pot,
    ranking: Ranking,
    shut_by: Sequence[str],
    players: Sequence[str],
    ante: int,
    balances: Mapping[str, int],
) -> PotPayout:
    """Pay out a round's pot by side pots (all in, SPEC 4); a winner who shut the box is paid
    double: every other player pays one more ante, or one more of what the shutter had in the
    pot if that was less (an all-in shutter can win no more from anyone than they risked).

    `ranking` is the round's chip-eligible players best first, the winners (never bots) as its
    first group; with no winner the pot carries over whole. `balances` are those after antes.
    """
    _check_stake(ante)
    ranking = [_unique(group) for group in ranking if group]
    if not ranking:
        return PotPayout(pot, [])
    paid = pot.by_payer()
    cut = layers(paid, ranking)
    shutters = [player for player in ranking[0] if player in shut_by]
    extra: dict[str, int] = {}
    if shutters:
        stake = min(ante, *(paid.get(player, 0) for player in shutters))
        losers = [player for player in _unique(players) if player not in ranking[0]]
        extra = {
            payer: amount for payer in losers if (amount := min(stake, _available(balances, payer)))
        }
    extras = [Transfer(payer, pot.account, amount) for payer, amount in extra.items()]
    for payer, amount in extra.items():
        pot = pot.add(payer, amount)
    pot, payouts = _pay_layers(pot, cut, extra, shutters)
    won = {payout.target: payout.amount for payout in payouts}
    return PotPayout(pot, extras + payouts, all_ins(cut, ranking, paid, won))


def refund_pot(pot: Pot) -> tuple[Pot, list[Transfer]]:
    """The match ended or stopped: what is in the pot goes back to whoever put it there."""
    refunds = [Transfer(pot.account, payer, amount) for payer, amount in pot.by_payer().items()]
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


@dataclass(frozen=True, slots=True)
class MostLoss:
    """The most one player can lose: per round, and over the whole match when it has a fixed
    length (the long game antes once; rounds:N has N rounds; the other formats run on)."""

    per_round: int
    match: int | None


def most_loss(config: MatchConfig) -> MostLoss:
    """A shut doubles a Canoga payment and adds one ante to the pot."""
    stakes, fmt = config.stakes, config.format
    if fmt.kind is FormatKind.LONG:
        return MostLoss(stakes.amount, stakes.amount)
    if stakes.kind is StakesKind.CANOGA:
        per_round = config.rules.max_score * stakes.amount * SHUT_MULTIPLIER
    else:
        per_round = stakes.amount * SHUT_MULTIPLIER
    return MostLoss(per_round, per_round * fmt.rounds if fmt.kind is FormatKind.ROUNDS else None)
