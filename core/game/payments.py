"""Turn a click's events into chip transfers: antes, pot payouts, Canoga payments, refunds.

The engine knows nothing of chips; this replays its events in order against running balances
(a `Tally`), so every payment respects table stakes at the moment it happens, by the rules of
`settlement.py`. Bots never stake or win. "Settle" means only this: paying chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core.game.events import (
    Dropped,
    Eliminated,
    Event,
    MatchEnded,
    RoundEnded,
    RoundStarted,
)
from core.game.match import FormatKind, Stakes, StakesKind
from core.game.settlement import (
    Pot,
    Transfer,
    apply_transfers,
    collect_antes,
    most_loss,
    refund_pot,
    settle_canoga,
    settle_pot_round,
)
from core.game.side_pots import AllIn
from core.game.state import Ending, GameState, Phase


def pot_account(channel: str) -> str:
    return f"pot:{channel}"


def settles(before: GameState, events: Sequence[Event]) -> bool:
    """Whether these events settle stakes (an ante, a round's or the match's payments).

    Such a commit must settle against every seated staked player's current balance: the
    commit names them all (`Commit.stakers`) and the script refuses it if any has changed.
    """
    settling = (RoundStarted, RoundEnded, MatchEnded)
    return before.config.stakes.staked and any(isinstance(e, settling) for e in events)


WHOLE_BALANCE = -1  # a hold of a seated Canoga player: every chip they have is at stake


def holds_of(state: GameState) -> dict[str, int]:
    """The chips each seated human must keep while this staked game runs, so they can't be
    given away: the next ante in a pot game, the whole balance (`WHOLE_BALANCE`) in Canoga.
    Nobody holds anything once the game is over or after they left it."""
    stakes = state.config.stakes
    if not stakes.staked or state.over:
        return {}
    amount = stakes.amount if stakes.kind is StakesKind.POT else WHOLE_BALANCE
    return {seat.id: amount for seat in state.seats if not seat.bot and seat.active}


def short_of(state: GameState, balances: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """The seated humans of a staked lobby whose balance is below the most the match can cost
    them (per round where the match has no fixed length), with that balance."""
    if not state.config.stakes.staked or state.phase is not Phase.LOBBY:
        return ()
    most = most_loss(state.config)
    at_stake = most.match if most.match is not None else most.per_round
    return tuple(
        (seat.id, balances[seat.id])
        for seat in state.seats
        if not seat.bot and seat.id in balances and balances[seat.id] < at_stake
    )


def hold_changes(
    before: GameState, after: GameState, *, creating: bool
) -> tuple[tuple[str, int], ...]:
    """The holds this commit writes for its channel (0 releases one); () when none change."""
    was, now = ({} if creating else holds_of(before)), holds_of(after)
    if was == now:
        return ()
    return tuple((account, now.get(account, 0)) for account in dict.fromkeys((*was, *now)))


@dataclass(slots=True)
class Tally:
    """The running balances of one settlement and the transfers it made so far."""

    stakes: Stakes
    pot: Pot
    balances: dict[str, int]
    transfers: list[Transfer] = field(default_factory=list)
    round_players: list[str] = field(default_factory=list)
    by_event: dict[int, list[Transfer]] = field(default_factory=dict)
    all_in: dict[int, tuple[AllIn, ...]] = field(default_factory=dict)
    idle_rounds: set[int] = field(default_factory=set)  # rounds that ended void, by event
    short: dict[int, tuple[tuple[str, int], ...]] = field(default_factory=dict)  # short antes
    gone: set[int] = field(default_factory=set)  # seats that left, dropped or are out
    event: int = 0  # index of the event being settled
    # The match is void (`GameState.void`: no human has made a decision of their own): a round
    # that ends so pays nobody (its antes go back), so a void match moves no chip in the end.
    void: bool = False

    def book(self, transfers: Sequence[Transfer]) -> None:
        self.balances = apply_transfers(self.balances, transfers)
        self.transfers += transfers
        self.by_event.setdefault(self.event, []).extend(transfers)


@dataclass(frozen=True, slots=True)
class Settlement:
    pot: Pot
    transfers: list[Transfer]
    by_event: dict[int, list[Transfer]]  # which event (by index) caused which transfers
    pots: dict[int, int] = field(default_factory=dict)  # the pot after each round's end, by event
    all_in: dict[int, tuple[AllIn, ...]] = field(default_factory=dict)  # capped winners, by event
    # Rounds that ended before any human decided anything: they paid nobody, by event.
    idle_rounds: frozenset[int] = frozenset()
    # Who paid less than the whole ante of a round (all in), with what they paid, by event.
    short: dict[int, tuple[tuple[str, int], ...]] = field(default_factory=dict)


def settle(
    before: GameState,
    after: GameState,
    events: Sequence[Event],
    pot: Pot,
    balances: Mapping[str, int],
) -> Settlement:
    """The pot after this click and the transfers to make, given balances before it.

    Whether the match is void is the state's own word (`after.void`): a human's own decision
    is the action of the click that carries it, so it comes before any round end it causes.
    """
    stakes = before.config.stakes
    if not stakes.staked:
        return Settlement(pot, [], {})
    tally = Tally(stakes, pot, {**balances, pot.account: pot.total})
    tally.round_players = [
        s.id for i, s in enumerate(before.seats) if not s.bot and before.in_round(i)
    ]
    tally.gone = {i for i, s in enumerate(before.seats) if not s.active}
    tally.void = after.void
    pots: dict[int, int] = {}
    for index, event in enumerate(events):
        tally.event = index
        _settle_event(tally, before, event)
        if isinstance(event, RoundEnded):
            pots[index] = tally.pot.total
    return Settlement(tally.pot, tally.transfers, tally.by_event, pots, tally.all_in,
                      frozenset(tally.idle_rounds), tally.short)  # fmt: skip


def _settle_event(tally: Tally, state: GameState, event: Event) -> None:
    if isinstance(event, (Dropped, Eliminated)):
        tally.gone.add(event.seat)
    elif isinstance(event, RoundStarted):
        tally.round_players = stakers(state, event.order, tally.gone)
        if tally.stakes.kind is StakesKind.POT:
            _ante(tally)
    elif isinstance(event, RoundEnded):
        _round_end(tally, state, event)
    elif isinstance(event, MatchEnded):
        _match_end(tally, state, event)


def stakers(state: GameState, order: Sequence[int], gone: set[int]) -> list[str]:
    """Who antes for a round: the humans in its order who still play. The engine's order keeps
    the seats of players who left or were dropped (their turns are skipped), and `gone` names
    them, so nobody pays into a round they will not play."""
    return [state.seats[i].id for i in order if not state.seats[i].bot and i not in gone]


def _ante(tally: Tally) -> None:
    pot, transfers = collect_antes(
        tally.pot, tally.round_players, tally.stakes.amount, tally.balances
    )
    tally.pot = pot
    tally.book(transfers)
    paid = {transfer.source: transfer.amount for transfer in transfers}
    short = tuple(
        (player, paid.get(player, 0))
        for player in tally.round_players
        if paid.get(player, 0) < tally.stakes.amount
    )
    if short:
        tally.short[tally.event] = short


def _human_ids(state: GameState, seats: Sequence[int], players: Sequence[str]) -> list[str]:
    return [state.seats[i].id for i in seats if state.seats[i].id in players]


def _round_end(tally: Tally, state: GameState, event: RoundEnded) -> None:
    if tally.void:
        tally.idle_rounds.add(tally.event)
        _refund(tally)
        return
    players = tally.round_players
    winners = _human_ids(state, event.winners, players)
    shut_by = _human_ids(state, event.shut_by, players)
    if tally.stakes.kind is StakesKind.POT:
        _pay_pot(tally, _ranking(tally, state, event, winners), shut_by)
        return
    if not winners:
        return  # a bot won the round: bots never win chips, so no Canoga payments
    scores = {
        state.seats[i].id: score
        for i, score in enumerate(event.scores)
        if score is not None and state.seats[i].id in players
    }
    tally.book(settle_canoga(scores, winners, bool(shut_by), tally.stakes.amount, tally.balances))


def _match_end(tally: Tally, state: GameState, event: MatchEnded) -> None:
    long_game = state.config.format.kind is FormatKind.LONG
    pot_stakes = tally.stakes.kind is StakesKind.POT
    if long_game and event.ending is Ending.FINISHED and pot_stakes and not tally.void:
        winners = _human_ids(state, event.winners, tally.round_players)
        others = [p for p in _playing(tally, state) if p not in winners]
        _pay_pot(tally, [winners, others] if winners else [], ())
    # Whatever is left (odd chips, a pot a bot won, the unfinished round) goes back to its payers.
    _refund(tally)


def _playing(tally: Tally, state: GameState) -> list[str]:
    """The round's payers who still play (a player who left keeps no claim on the pot)."""
    still = {state.seats[i].id for i in range(len(state.seats)) if i not in tally.gone}
    return [player for player in tally.round_players if player in still]


def _ranking(
    tally: Tally, state: GameState, event: RoundEnded, winners: list[str]
) -> list[list[str]]:
    """Who may win the pot, best first: the human winners, then the other players still in
    the round by score (ties together; a player without a score last). A round only bots won
    ranks nobody: its pot carries over whole."""
    if not winners:
        return []
    scores = {state.seats[i].id: score for i, score in enumerate(event.scores)}
    others = [p for p in _playing(tally, state) if p not in winners]
    groups: dict[int | None, list[str]] = {}
    for player in sorted(others, key=lambda p: (scores.get(p) is None, scores.get(p) or 0)):
        groups.setdefault(scores.get(player), []).append(player)
    return [winners, *groups.values()]


def _pay_pot(tally: Tally, ranking: list[list[str]], shut_by: Sequence[str]) -> None:
    paid = settle_pot_round(
        tally.pot, ranking, shut_by, tally.round_players, tally.stakes.amount, tally.balances
    )
    tally.pot = paid.pot
    tally.book(paid.transfers)
    if paid.all_in:
        tally.all_in[tally.event] = paid.all_in


def _refund(tally: Tally) -> None:
    pot, transfers = refund_pot(tally.pot)
    tally.pot = pot
    tally.book(transfers)
