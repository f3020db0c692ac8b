"""All in (SPEC section 4): who may win which chips of a pot, as poker's side pots do.

A player who put `p` chips into the pot can win at most `p` from each other payer; what the
others put in beyond that goes to the best of those who paid more, by the same rule. So the
pot is cut into layers at each eligible player's level: a layer holds, from every payer, what
they paid between the level below and its own, and is shared by the best-ranked players whose
level reaches it. A layer that no eligible player reaches stays in the pot.

Pure values only: the pot's own bookkeeping (who paid which chips) lives in `settlement`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Ranking = Sequence[Sequence[str]]  # the eligible players, best first; a group is a tie


@dataclass(frozen=True, slots=True)
class Layer:
    """One side pot: `taken` chips from each payer, shared evenly by `winners`."""

    level: int  # what a player must have paid in to have a claim on this layer
    taken: tuple[tuple[str, int], ...]  # (payer, chips), in the order of `paid`
    winners: tuple[str, ...]  # () when no eligible player reaches the layer

    @property
    def amount(self) -> int:
        return sum(chips for _, chips in self.taken)

    @property
    def share(self) -> int:
        """Each winner's part; the odd chips (amount % winners) stay in the pot."""
        return self.amount // len(self.winners) if self.winners else 0


@dataclass(frozen=True, slots=True)
class AllIn:
    """A winner who could not take the whole rest of the pot, for the round summary."""

    player: str
    paid: int  # what they had in the pot
    won: int  # what they take
    rest: int  # what the players who paid more take instead (or what stays, with `to` empty)
    to: tuple[str, ...]


def layers(paid: Mapping[str, int], ranking: Ranking) -> tuple[Layer, ...]:
    """The pot's layers, lowest level first. `paid` is every payer's chips in the pot (a
    player who left still has theirs there, but only the players in `ranking` may win)."""
    eligible = {player for group in ranking for player in group}
    levels = sorted({paid.get(player, 0) for player in eligible} | {max(paid.values(), default=0)})
    cut: list[Layer] = []
    below = 0
    for level in levels:
        taken = tuple(
            (payer, min(chips, level) - below) for payer, chips in paid.items() if chips > below
        )
        if level > below and taken:
            cut.append(Layer(level, taken, _best_reaching(ranking, paid, level)))
        below = level
    return tuple(cut)


def _best_reaching(ranking: Ranking, paid: Mapping[str, int], level: int) -> tuple[str, ...]:
    """The best-ranked group's players who paid at least `level` (the first group with any)."""
    for group in ranking:
        reaching = tuple(player for player in group if paid.get(player, 0) >= level)
        if reaching:
            return reaching
    return ()


def winnings(cut: Sequence[Layer]) -> dict[str, int]:
    """What each winner takes from the layers, in the order they are first paid."""
    won: dict[str, int] = {}
    for layer in cut:
        for winner in layer.winners:
            if layer.share:
                won[winner] = won.get(winner, 0) + layer.share
    return won


def all_ins(
    cut: Sequence[Layer], ranking: Ranking, paid: Mapping[str, int], won: Mapping[str, int]
) -> tuple[AllIn, ...]:
    """Every winner of the best group, and every later taker, whose claim stopped below the
    pot's top layer: what they had in, what they take in all (`won`), and who takes the rest
    (what the layers above them pay out, or what stays in the pot when nobody reaches them)."""
    takers = dict.fromkeys((*(ranking[0] if ranking else ()), *won))
    told: list[AllIn] = []
    for player in takers:
        level = paid.get(player, 0)
        above = [layer for layer in cut if layer.level > level]
        if not above:
            continue
        rest: dict[str, int] = {}
        for layer in above:
            for winner in layer.winners if layer.share else ():
                rest[winner] = rest.get(winner, 0) + layer.share
        amount = sum(rest.values()) or sum(layer.amount for layer in above)
        told.append(AllIn(player, level, won.get(player, 0), amount, tuple(rest)))
    return tuple(told)
