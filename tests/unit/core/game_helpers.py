"""Small builders shared by the engine tests: a table of players and scripted dice."""

from __future__ import annotations

from core.game.actions import Action, Begin, Join
from core.game.dice import FixedDice
from core.game.engine import apply, new_game
from core.game.events import Event
from core.game.match import MatchConfig, MatchFormat
from core.game.rules import Rules
from core.game.state import GameState


def config(fmt: str = "rounds:1", rules: Rules | None = None, **options: object) -> MatchConfig:
    return MatchConfig(rules=rules or Rules(), format=MatchFormat.parse(fmt), **options)  # type: ignore[arg-type]


def table(*names: str, cfg: MatchConfig | None = None) -> GameState:
    """A lobby hosted by the first name, with the others joined (ids are the lowercase names)."""
    state = new_game(cfg or config(), names[0].lower(), names[0])
    for name in names[1:]:
        state, _ = apply(state, Join(name.lower(), name=name), FixedDice([]))
    return state


def begun(*names: str, cfg: MatchConfig | None = None) -> GameState:
    state = table(*names, cfg=cfg)
    state, _ = apply(state, Begin(names[0].lower()), FixedDice([]))
    return state


def play(
    state: GameState, *steps: tuple[Action, list[tuple[int, ...]]]
) -> tuple[GameState, list[Event]]:
    """Apply actions in order, each with the dice it rolls; return the last state and all events."""
    events: list[Event] = []
    for action, rolls in steps:
        dice = FixedDice(rolls)
        state, new = apply(state, action, dice)
        assert dice.remaining == 0, f"{action} left dice unused"
        events += new
    return state, events
