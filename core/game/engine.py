"""The pure game engine: `apply(state, action, dice) -> (state, events)`, deterministic in the dice.

Illegal actions raise narrow errors from `core.game.errors`; the input state is never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from core.game import autoplay, flow
from core.game.actions import (
    Action,
    AddBot,
    Begin,
    Cancel,
    Choose,
    HandHost,
    Join,
    Leave,
    RemoveSeat,
    Roll,
    Stop,
    Timeout,
)
from core.game.dice import DiceSource
from core.game.errors import IllegalMove, NotAllowed, NotYourTurn, StaleAction
from core.game.events import Event, Joined, Left, MatchStarted, Stopped
from core.game.flow import Step
from core.game.match import FormatKind, MatchConfig
from core.game.state import Ending, GameState, Phase, Seat

BOT_PREFIX = "bot:"


def apply(state: GameState, action: Action, dice: DiceSource) -> tuple[GameState, list[Event]]:
    """Apply one action, then let bots play until a human must act; bump the version."""
    step = Step(state, dice)
    HANDLERS[type(action)](step, action)
    autoplay.play_bots(step)
    return step.state.evolve(version=state.version + 1), step.events


def new_game(config: MatchConfig, host_id: str, host_name: str) -> GameState:
    """A lobby with the host in seat 1."""
    return GameState(config=config, seats=(Seat(host_id, host_name),))


def _require_lobby(state: GameState, started: str = "error.lobby.closed") -> None:
    if state.phase is not Phase.LOBBY:
        raise IllegalMove(started if not state.over else "error.game_over")


def _require_host(state: GameState, user: str) -> None:
    if user != state.host.id:
        raise NotAllowed("error.host_only", host=state.host.name)


def _join(step: Step, action: Action) -> None:
    assert isinstance(action, Join)
    state = step.state
    seat = state.seat_of(action.user)
    if seat is not None and not state.seats[seat].dropped and not state.over:  # still playing
        raise IllegalMove("error.lobby.seated")
    _require_lobby(state)
    if len(state.seats) >= state.config.seat_limit:
        raise IllegalMove("error.lobby.full", max=state.config.seat_limit)
    step.state = state.evolve(seats=(*state.seats, Seat(action.user, action.name)))
    step.emit(Joined(len(state.seats)))


def _add_bot(step: Step, action: Action) -> None:
    state = step.state
    _require_lobby(state)
    if state.seat_of(action.user) is None:
        raise NotAllowed("error.bot_not_seated")
    if len(state.seats) >= state.config.seat_limit:
        raise IllegalMove("error.lobby.full", max=state.config.seat_limit)
    number = 1 + sum(seat.bot for seat in state.seats)
    bot = Seat(f"{BOT_PREFIX}{number}", f"Bot {number}", bot=True)
    step.state = state.evolve(seats=(*state.seats, bot))
    step.emit(Joined(len(state.seats)))


def _leave(step: Step, action: Action) -> None:
    state = step.state
    index = state.seat_of(action.user)
    if index is None:
        raise IllegalMove("error.not_seated")
    if state.phase is Phase.LOBBY:
        if index == 0:
            raise IllegalMove("error.lobby.host_leave")
        step.state = state.evolve(seats=state.seats[:index] + state.seats[index + 1 :])
        step.emit(Left(index, state.seats[index].name))
        return
    if state.over:
        raise IllegalMove("error.game_over")
    flow.drop(step, index, left=True)


def _lobby_seat(state: GameState, action: RemoveSeat | HandHost) -> Seat:
    """The seat a host's lobby button names: anyone but the host."""
    _require_lobby(state)
    _require_host(state, action.user)
    if not 0 < action.seat < len(state.seats):
        raise StaleAction()
    return state.seats[action.seat]


def _remove_seat(step: Step, action: Action) -> None:
    assert isinstance(action, RemoveSeat)
    state, index = step.state, action.seat
    seat = _lobby_seat(state, action)
    step.state = state.evolve(seats=state.seats[:index] + state.seats[index + 1 :])
    step.emit(Left(index, seat.name))


def _hand_host(step: Step, action: Action) -> None:
    """The new host takes the first seat (the host's), the old host theirs."""
    assert isinstance(action, HandHost)
    state, index = step.state, action.seat
    seat = _lobby_seat(state, action)
    if seat.bot:
        raise IllegalMove("error.lobby.bot_host")
    seats = list(state.seats)
    seats[0], seats[index] = seat, seats[0]
    step.state = state.evolve(seats=tuple(seats))


def _begin(step: Step, action: Action) -> None:
    state = step.state
    _require_lobby(state, "error.already_started")
    _require_host(state, action.user)
    config = state.config
    if not config.min_players <= len(state.seats) <= config.seat_limit:
        if config.min_players == config.seat_limit:
            raise IllegalMove("error.lobby.players_exact", count=config.min_players)
        raise IllegalMove("error.lobby.players", min=config.min_players, max=config.seat_limit)
    # Every human starts idle: their first roll or move of their own makes the match count.
    seats = tuple(seat if seat.bot else replace(seat, idle=True) for seat in state.seats)
    step.state = state.evolve(seats=seats)
    step.emit(MatchStarted())
    if config.format.kind is FormatKind.LONG:
        flow.start_long(step)
    else:
        flow.start_round(step, 1)


def _cancel(step: Step, action: Action) -> None:
    if step.state.phase is not Phase.LOBBY and not step.state.over:
        raise IllegalMove("error.cancel_started")  # a started game is stopped, not cancelled
    _require_lobby(step.state)
    _require_host(step.state, action.user)
    flow.end_match(step, Ending.CANCELLED, ())


def _stop(step: Step, action: Action) -> None:
    assert isinstance(action, Stop)
    if step.state.over:
        raise IllegalMove("error.game_over")
    state = step.state
    index = state.seat_of(action.user)
    if action.user != state.host.id and not action.admin:
        raise NotAllowed("error.stop_not_allowed", host=state.host.name)
    step.emit(Stopped(state.seats[index].name if index is not None else action.name or "?"))
    flow.end_match(step, Ending.STOPPED, ())


def _turn_seat(state: GameState, action: Action, phase: Phase) -> int:
    """The acting seat, after checking it is this user's turn, on a current message."""
    seat = state.to_act
    if seat is None:
        raise IllegalMove("error.game_over" if state.over else "error.not_started")
    if seat.id != action.user:
        raise NotYourTurn(player=seat.name)
    if state.phase is not phase:
        raise StaleAction()
    return state.turn


def _roll(step: Step, action: Action) -> None:
    assert isinstance(action, Roll)
    index = _turn_seat(step.state, action, Phase.ROLL)
    flow.decided(step, index)
    flow.roll(step, action.count, auto=False)


def _choose(step: Step, action: Action) -> None:
    assert isinstance(action, Choose)
    index = _turn_seat(step.state, action, Phase.CHOOSE)
    flow.decided(step, index)
    flow.choose(step, action.tiles, auto=False)


def _timeout(step: Step, action: Action) -> None:
    state = step.state
    if state.phase is Phase.LOBBY:
        flow.end_match(step, Ending.EXPIRED, ())
    elif state.over:
        raise IllegalMove("error.game_over")
    else:
        autoplay.auto_turn(step)


def _check_version(handler: Callable[[Step, Action], None]) -> Callable[[Step, Action], None]:
    """Refuse actions made on an outdated message, after the more specific checks of `handler`."""

    def checked(step: Step, action: Action) -> None:
        stale = action.version is not None and action.version != step.state.version
        if stale and not isinstance(action, (Roll, Choose)):
            raise StaleAction()
        if stale:
            _turn_seat(step.state, action, step.state.phase)  # wrong player beats stale
            raise StaleAction()
        handler(step, action)

    return checked


HANDLERS: dict[type[Action], Callable[[Step, Action], None]] = {
    kind: _check_version(handler)
    for kind, handler in {
        Join: _join,
        Leave: _leave,
        AddBot: _add_bot,
        RemoveSeat: _remove_seat,
        HandHost: _hand_host,
        Begin: _begin,
        Cancel: _cancel,
        Stop: _stop,
        Roll: _roll,
        Choose: _choose,
        Timeout: _timeout,
    }.items()
}
