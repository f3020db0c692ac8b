"""A match ends exactly once, whatever mix of timeouts, leaves, drops and presses ends it.

Hypothesis draws a table (one to three humans, maybe a bot), a format and a sequence of
timeouts (three in a row drop a player), leaves and presses; the engine must emit one
`MatchEnded` in all, drop nobody after it, and name winners that agree with the totals.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.game.actions import Action, AddBot, Begin, Choose, Leave, Roll, Timeout
from core.game.dice import SeededDice
from core.game.engine import apply
from core.game.errors import ShutboxError
from core.game.events import Dropped, Event, MatchEnded
from core.game.flow import available
from core.game.match import FormatKind
from core.game.state import Ending, GameState, Phase
from tests.unit.core.game_helpers import config, table

NAMES = ("Ann", "Bob", "Cid")
FORMATS = ("rounds:1", "rounds:2", "rounds:3", "to-45", "elimination", "first-shut", "long")
STEPS = st.lists(
    st.one_of(st.just("timeout"), st.just("press"), st.tuples(st.just("leave"), st.integers(0, 2))),
    max_size=120,
)


def start(humans: int, bot: bool, fmt: str) -> GameState | None:
    cfg = config(fmt)
    if humans > cfg.seat_limit:
        return None
    state = table(*NAMES[:humans], cfg=cfg)
    if bot and len(state.seats) < cfg.seat_limit:
        state, _ = apply(state, AddBot("ann"), SeededDice(0))
    if not cfg.min_players <= len(state.seats) <= cfg.seat_limit:
        return None
    return apply(state, Begin("ann"), SeededDice(0))[0]


def action_for(state: GameState, step: object) -> Action | None:
    if step == "timeout":
        return Timeout("clock", version=state.version)
    if isinstance(step, tuple):
        seat = state.seats[step[1] % len(state.seats)]
        return None if seat.bot else Leave(seat.id)
    seat = state.to_act
    if seat is None:
        return None
    if state.phase is Phase.ROLL:
        return Roll(seat.id, count=state.config.rules.dice)
    moves = state.config.rules.allows(available(state), state.dice).moves
    return Choose(seat.id, tiles=moves[0])


def check_winners(state: GameState) -> None:
    present = [i for i, seat in enumerate(state.seats) if not seat.dropped]
    assert all(i in present for i in state.winners) or state.config.format.kind is FormatKind.LONG
    if state.config.format.kind in (FormatKind.ROUNDS, FormatKind.TO_45) and present:
        best = min(state.seats[i].total for i in present)
        assert state.winners == tuple(i for i in present if state.seats[i].total == best)
    if not present:
        assert state.winners == ()


@settings(max_examples=300, deadline=None)
@given(
    humans=st.integers(1, 3),
    bot=st.booleans(),
    fmt=st.sampled_from(FORMATS),
    steps=STEPS,
    seed=st.integers(0, 10**6),
)
def test_a_match_ends_once(
    humans: int, bot: bool, fmt: str, steps: list[object], seed: int
) -> None:
    state = start(humans, bot, fmt)
    if state is None:
        return
    dice = SeededDice(seed)
    events: list[Event] = []
    for step in [*steps, *["timeout"] * 400]:
        if state.over:
            break
        action = action_for(state, step)
        if action is None:
            continue
        try:
            state, new = apply(state, action, dice)
        except ShutboxError:
            continue
        events += new
    assert state.over and state.ending is Ending.FINISHED
    ended = [i for i, event in enumerate(events) if isinstance(event, MatchEnded)]
    assert len(ended) == 1, events
    assert not any(isinstance(event, Dropped) for event in events[ended[0] :])
    assert events[ended[0]] == MatchEnded(Ending.FINISHED, state.winners)
    check_winners(state)
