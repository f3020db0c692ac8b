"""SPEC section 4 as an independent model: every player's balance after every game event.

Written from the spec alone (it imports nothing of the product's settlement): it reads the
engine's events (who played which round, the scores, the winners, who shut the box, who left)
and moves chips by the rules, so a test can hold every balance the real manager leaves in
Redis against what the rules say, step by step.

The rules it keeps, as SPEC 4 words them:
- `pot:A`: before each round every human still playing antes A, or all they have if less. The
  round's best human takes the pot; a shutter is paid double (every other player of the round
  pays one more ante); tied winners split it, the odd chip staying in the pot.
- All in: a player with `p` chips in the pot wins at most `p` from each other payer; the rest
  goes to the best of those who paid more, by the same rule, and what nobody may claim stays.
  An all-in shutter is paid one more of their own stake by each other player.
- `canoga:K`: every loser pays each winner's share of (score - best) * K, doubled on a shut,
  capped at the loser's balance; an odd chip of a split stays with the payer.
- The long game antes once; its winner takes the pot when it finishes.
- A round that ends before any human made a decision of their own pays nobody (a match no
  human decided anything in is void: every stake goes back).
- Whatever is in the pot when the match ends (odd chips, a pot a bot won, the unfinished round
  of a stopped match) goes back to whoever put it there. Players who left or were dropped
  ante no more and win nothing from then on.
Which payer's chips an odd chip is (the spec is silent): a payout takes each payer's oldest
chips, in the order the payers first paid, so the odd chips are the latest payers'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.game.events import (
    Dropped,
    Eliminated,
    Event,
    MatchEnded,
    Moved,
    Rolled,
    RoundEnded,
    RoundStarted,
)
from core.game.state import Ending, GameState

Ranking = list[list[str]]


@dataclass
class ModelPot:
    """Chips in the pot as (payer, chips) in the order paid."""

    entries: list[tuple[str, int]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(chips for _, chips in self.entries)

    def put(self, payer: str, chips: int) -> None:
        if chips:
            self.entries.append((payer, chips))

    def held(self) -> dict[str, int]:
        """Each payer's chips in the pot, in the order they first paid."""
        found: dict[str, int] = {}
        for payer, chips in self.entries:
            found[payer] = found.get(payer, 0) + chips
        return found

    def take(self, payer: str, chips: int) -> None:
        """Remove `chips` of this payer's, the oldest first."""
        kept: list[tuple[str, int]] = []
        for who, have in self.entries:
            part = min(have, chips) if who == payer else 0
            chips -= part
            if have > part:
                kept.append((who, have - part))
        assert chips == 0, f"the pot has no more of {payer}'s chips"
        self.entries = kept


@dataclass
class StakesModel:
    """The balances a staked match must leave, fed the engine's events click by click."""

    pot_game: bool  # pot stakes; else Canoga
    amount: int  # the ante, or Canoga's chips per point
    long: bool
    balances: dict[str, int]
    pot: ModelPot = field(default_factory=ModelPot)
    playing: list[str] = field(default_factory=list)  # the humans of the round being played
    gone: set[str] = field(default_factory=set)
    idle: bool = True  # no human has made a decision of their own yet
    extra: dict[str, int] = field(default_factory=dict)  # a shut's extra antes, by payer

    def see(self, before: GameState, events: Sequence[Event]) -> None:
        for event in events:
            self._see(before, event)

    def _see(self, state: GameState, event: Event) -> None:
        seats = state.seats
        if isinstance(event, (Rolled, Moved)) and not event.auto and not seats[event.seat].bot:
            self.idle = False
        elif isinstance(event, (Dropped, Eliminated)):
            self.gone.add(seats[event.seat].id)
        elif isinstance(event, RoundStarted):
            humans = [seats[i].id for i in event.order if not seats[i].bot]
            self.playing = [player for player in humans if player not in self.gone]
            if self.pot_game:
                for player in self.playing:
                    self._pay_in(player, self.amount)
        elif isinstance(event, RoundEnded):
            self._round_ended(state, event)
        elif isinstance(event, MatchEnded):
            self._match_ended(state, event)

    def _pay_in(self, player: str, chips: int) -> int:
        paid = min(chips, self.balances.get(player, 0))
        self.balances[player] = self.balances.get(player, 0) - paid
        self.pot.put(player, paid)
        return paid

    def _winners(self, state: GameState, seats: Sequence[int]) -> list[str]:
        return [state.seats[i].id for i in seats if state.seats[i].id in self.playing]

    def _round_ended(self, state: GameState, event: RoundEnded) -> None:
        if self.idle:
            self._all_back()
            return
        winners = self._winners(state, event.winners)
        shutters = [p for p in winners if p in self._winners(state, event.shut_by)]
        if not winners:
            return  # a bot won: bots win no chips, the pot waits for the next round
        scores = {
            state.seats[i].id: score
            for i, score in enumerate(event.scores)
            if score is not None and state.seats[i].id in self.playing
        }
        if self.pot_game:
            self._shut_extra(winners, shutters)
            self._pay_pot(self._ranking(winners, scores), shutters)
        else:
            self._canoga(winners, scores, bool(shutters))

    def _ranking(self, winners: list[str], scores: dict[str, int]) -> Ranking:
        """The winners, then every other player still in, by score (a tie is one group)."""
        rest = [p for p in self.playing if p not in winners and p not in self.gone]
        by_score: dict[int | None, list[str]] = {}
        for player in sorted(rest, key=lambda p: (p not in scores, scores.get(p, 0))):
            by_score.setdefault(scores.get(player), []).append(player)
        return [winners, *by_score.values()]

    def _shut_extra(self, winners: list[str], shutters: list[str]) -> None:
        """Every other player of the round pays one more ante, or one more of the least any
        shutter has in the pot; the shutters share it, the odd chips stay in the pot."""
        self.extra = {}
        if not shutters:
            return
        held = self.pot.held()
        stake = min([self.amount, *(held.get(s, 0) for s in shutters)])
        for player in self.playing:
            if player not in winners:
                self.extra[player] = self._pay_in(player, stake)

    def _pay_pot(self, ranking: Ranking, shutters: list[str]) -> None:
        held = self.pot.held()
        extra = self.extra if shutters else {}
        for player, chips in extra.items():  # the extra antes are shared on their own
            held[player] = held.get(player, 0) - chips
        claims = sorted({held.get(p, 0) for group in ranking for p in group})
        below = 0
        for level in [*claims, max(held.values(), default=0)]:
            parts = [(p, min(have, level) - below) for p, have in held.items() if have > below]
            takers = next(
                ([p for p in group if held.get(p, 0) >= level] for group in ranking
                 if any(held.get(p, 0) >= level for p in group)), [],
            )  # fmt: skip
            if level > below and parts and takers:
                self._share(parts, takers)
            below = max(below, level)
        if extra:
            self._share([(p, c) for p, c in extra.items() if c], shutters)

    def _share(self, parts: list[tuple[str, int]], takers: list[str]) -> None:
        """Split these chips evenly among the takers; the odd ones stay (the latest payers')."""
        share = sum(chips for _, chips in parts) // len(takers) if takers else 0
        owed = share * len(takers)
        for payer, chips in parts:
            part = min(chips, owed)
            owed -= part
            if part:
                self.pot.take(payer, part)
        for taker in takers:
            self.balances[taker] = self.balances.get(taker, 0) + share

    def _canoga(self, winners: list[str], scores: dict[str, int], shut: bool) -> None:
        best = scores[winners[0]]
        factor = self.amount * (2 if shut else 1)
        for loser in (p for p in scores if p not in winners):
            owed = min(max(0, scores[loser] - best) * factor, self.balances.get(loser, 0))
            share = owed // len(winners)
            for winner in winners:
                self.balances[loser] -= share
                self.balances[winner] = self.balances.get(winner, 0) + share

    def _match_ended(self, state: GameState, event: MatchEnded) -> None:
        finished = event.ending is Ending.FINISHED
        if self.long and self.pot_game and finished and not self.idle:
            winners = self._winners(state, event.winners)
            rest = [p for p in self.playing if p not in winners and p not in self.gone]
            if winners:
                self._pay_pot([winners, rest], [])
        self._all_back()

    def _all_back(self) -> None:
        for payer, chips in self.pot.held().items():
            self.balances[payer] = self.balances.get(payer, 0) + chips
        self.pot = ModelPot()
