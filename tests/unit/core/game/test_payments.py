"""A click's events become chip transfers exactly as SPEC section 4 says; bots never stake."""

from __future__ import annotations

from core.game.actions import AddBot, Begin, Choose, Roll
from core.game.dice import FixedDice
from core.game.engine import apply
from core.game.events import Event
from core.game.match import Stakes
from core.game.payments import settle
from core.game.rules import PRESETS
from core.game.settlement import Pot, Transfer, deltas
from core.game.state import GameState
from tests.unit.core.game_helpers import config, table

SAILORS = PRESETS["sailors"]  # 6-6 on a full box covers nothing: a quick 45
BALANCES = {"ann": 100, "bob": 100, "cid": 100}


def _staked(stakes: str, *names: str, bot: bool = False) -> GameState:
    cfg = config("rounds:2", SAILORS, stakes=Stakes.parse(stakes))
    state = table(*names, cfg=cfg)
    if bot:
        state, _ = apply(state, AddBot("ann"), FixedDice([]))
    return state


def _begin(state: GameState) -> tuple[Pot, list[Transfer], GameState]:
    after, events = apply(state, Begin("ann"), FixedDice([]))
    settled = settle(state, after, events, Pot("pot:c1"), BALANCES)
    return settled.pot, settled.transfers, after


def test_every_player_antes_before_the_round() -> None:
    """`pot:5`: each player puts 5 chips in the pot when the round begins."""
    pot, transfers, _ = _begin(_staked("pot:5", "Ann", "Bob", "Cid"))
    assert pot.total == 15
    assert deltas(transfers) == {"ann": -5, "pot:c1": 15, "bob": -5, "cid": -5}


def test_bots_never_stake() -> None:
    """A bot at the table puts nothing in the pot."""
    pot, transfers, _ = _begin(_staked("pot:5", "Ann", "Bob", bot=True))
    assert pot.total == 10 and "bot:1" not in deltas(transfers)


def _bob_scores_36(state: GameState) -> tuple[GameState, list[Event]]:
    """Bob closes 9 with 4-5, then rolls 6-6, which nothing covers: 36."""
    state, events = apply(state, Roll("bob"), FixedDice([(4, 5)]))
    state, more = apply(state, Choose("bob", tiles=0b100000000), FixedDice([]))
    state, last = apply(state, Roll("bob"), FixedDice([(6, 6)]))
    return state, [*events, *more, *last]


def test_round_winner_takes_the_pot() -> None:
    """The round's lowest score takes the whole pot."""
    pot, _, state = _begin(_staked("pot:5", "Ann", "Bob"))
    state, _ = apply(state, Roll("ann"), FixedDice([(6, 6)]))  # Ann: 45
    after, events = _bob_scores_36(state)
    settled = settle(state, after, events, pot, {"ann": 95, "bob": 95})
    payout = [t for t in settled.transfers if t.source == "pot:c1"]
    assert payout == [Transfer("pot:c1", "bob", 10)]


def test_canoga_losers_pay_the_difference() -> None:
    """`canoga`: the loser pays the winner the score difference, one chip a point."""
    state = _staked("canoga", "Ann", "Bob")
    state, _ = apply(state, Begin("ann"), FixedDice([]))
    state, _ = apply(state, Roll("ann"), FixedDice([(6, 6)]))  # Ann: 45
    after, events = _bob_scores_36(state)
    settled = settle(state, after, events, Pot("pot:c1"), {"ann": 100, "bob": 100})
    assert deltas(settled.transfers) == {"ann": -9, "bob": 9}
