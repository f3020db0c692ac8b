"""The host controls the table: who adds bots, who is removed, who hosts, who may stop."""

from __future__ import annotations

import pytest

from core.game.actions import AddBot, Begin, HandHost, RemoveSeat, Stop
from core.game.dice import FixedDice
from core.game.engine import apply
from core.game.errors import IllegalMove, NotAllowed, StaleAction
from core.game.events import Stopped
from core.game.state import GameState
from tests.unit.core.game_helpers import begun, table

NO_DICE = FixedDice([])


def act(state: GameState, action: object) -> GameState:
    return apply(state, action, FixedDice([]))[0]  # type: ignore[arg-type]


def test_only_a_seated_player_adds_a_bot() -> None:
    with pytest.raises(NotAllowed) as refused:
        act(table("Ann"), AddBot("zed"))
    assert refused.value.key == "error.bot_not_seated"
    assert act(table("Ann", "Bob"), AddBot("bob")).seats[2].bot


def test_the_host_removes_a_bot_or_a_player() -> None:
    state = act(table("Ann", "Bob"), AddBot("ann"))
    state = act(state, RemoveSeat("ann", seat=2))
    assert [seat.name for seat in state.seats] == ["Ann", "Bob"]
    state = act(state, RemoveSeat("ann", seat=1))
    assert [seat.name for seat in state.seats] == ["Ann"]


@pytest.mark.parametrize(
    ("action", "error"),
    [
        (RemoveSeat("bob", seat=0), NotAllowed),  # not the host
        (RemoveSeat("ann", seat=0), StaleAction),  # the host's own seat
        (RemoveSeat("ann", seat=5), StaleAction),  # no such seat
        (HandHost("bob", seat=1), NotAllowed),
        (HandHost("ann", seat=2), IllegalMove),  # a bot
    ],
)
def test_lobby_controls_refused(action: object, error: type[Exception]) -> None:
    state = act(table("Ann", "Bob"), AddBot("ann"))
    with pytest.raises(error):
        act(state, action)


def test_a_removal_on_an_outdated_lobby_is_refused() -> None:
    """Seat numbers shift when someone leaves: a Remove button shown before is stale."""
    state = table("Ann", "Bob")
    shown = state.version
    state = act(state, AddBot("ann"))
    with pytest.raises(StaleAction):
        act(state, RemoveSeat("ann", version=shown, seat=1))


def test_the_host_hands_the_role_on() -> None:
    state = act(table("Ann", "Bob", "Cy"), HandHost("ann", seat=2))
    assert state.host.name == "Cy" and [s.name for s in state.seats] == ["Cy", "Bob", "Ann"]
    with pytest.raises(NotAllowed):
        act(state, Begin("ann"))
    assert act(state, Begin("cy")).round == 1


def test_remove_and_host_only_in_the_lobby() -> None:
    with pytest.raises(IllegalMove):
        act(begun("Ann", "Bob"), RemoveSeat("ann", seat=1))


@pytest.mark.parametrize(
    ("user", "admin", "allowed"),
    [("ann", False, True), ("bob", False, False), ("bob", True, True), ("zed", True, True),
     ("zed", False, False)],
)  # fmt: skip
def test_stop_is_the_hosts_or_an_admins(user: str, admin: bool, allowed: bool) -> None:
    """The host or an admin (seated or not) may stop the game; the stop names who stopped."""
    state = begun("Ann", "Bob")
    if not allowed:
        with pytest.raises(NotAllowed):
            apply(state, Stop(user, admin=admin, name=user.capitalize()), NO_DICE)
        return
    stopped, events = apply(state, Stop(user, admin=admin, name=user.capitalize()), NO_DICE)
    assert stopped.over
    assert Stopped(user.capitalize()) in events
