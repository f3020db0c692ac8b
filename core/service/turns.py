"""Each player's last turn, kept on the game message for as long as it matters (issue: a
scrolling log of notices loses the roll that ended a player's turn once the bots have played).

A turn is kept as display text per seat, written in the game's language and board style (both
fixed for the life of a game), with the round it was played in and whether it was auto-played.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from core.game.events import Event, Moved, Rolled, RoundStarted, TimedOut, TurnEnd, TurnEnded
from core.game.match import FormatKind
from core.game.state import GameState
from core.text.i18n import t
from core.text.reasons import no_move_reason
from core.text.render import Style, render_dice, render_move

PIECES = " · "


@dataclass(frozen=True, slots=True)
class LastTurn:
    """One player's most recent turn as the score table shows it."""

    round: int = 0
    text: str = ""
    auto: bool = False
    ended: bool = True

    def to_json(self) -> list[object]:
        return [self.round, self.text, self.auto, self.ended]

    @classmethod
    def from_json(cls, data: Sequence[object]) -> LastTurn:
        number, text, auto, ended = data
        return cls(int(str(number)), str(text), bool(auto), bool(ended))


Turns = tuple[LastTurn, ...]


def dump(turns: Turns) -> str:
    return json.dumps([turn.to_json() for turn in turns], ensure_ascii=False)


def load(text: str) -> Turns:
    return tuple(LastTurn.from_json(item) for item in json.loads(text)) if text else ()


def follow(
    before: GameState,
    after: GameState,
    turns: Turns,
    events: Sequence[Event],
    lang: str,
    style: Style,
) -> Turns:
    """The players' last turns once this click's events have happened."""
    seats = list(turns) + [LastTurn()] * (len(after.seats) - len(turns))
    current = before.round
    for event in events:
        if isinstance(event, RoundStarted):
            current = event.round
        elif isinstance(event, (Rolled, Moved, TimedOut, TurnEnded)):
            seats[event.seat] = _step(seats[event.seat], event, current, after, lang, style)
    return tuple(seats)  # fmt: skip


def _step(
    turn: LastTurn, event: Event, current: int, state: GameState, lang: str, style: Style
) -> LastTurn:
    if turn.ended and isinstance(event, (Rolled, TimedOut)):
        turn = LastTurn(round=current, ended=False)
    if isinstance(event, TimedOut):
        return replace(turn, auto=True)
    if isinstance(event, Rolled):
        return _add(turn, render_dice(event.dice, style))
    if isinstance(event, Moved):
        return replace(turn, text=f"{turn.text} → {render_move(event.tiles)}")
    assert isinstance(event, TurnEnded)
    return replace(_ending(turn, event, state, lang), ended=True)


def _add(turn: LastTurn, piece: str) -> LastTurn:
    return replace(turn, text=f"{turn.text}{PIECES}{piece}" if turn.text else piece)


def _ending(turn: LastTurn, event: TurnEnded, state: GameState, lang: str) -> LastTurn:
    if event.reason is TurnEnd.NO_MOVE:
        opening = state.config.format.kind is FormatKind.LONG and event.seat == 1
        why = no_move_reason(state.config.rules, event.available, event.dice, lang, opening=opening)
        return replace(turn, text=f"{turn.text} ✗ {why}")
    if event.reason is TurnEnd.SHUT:
        return _add(turn, t(lang, "game.turn_shut"))
    if event.reason is TurnEnd.LAST_DIE:
        return replace(turn, text=f"{turn.text} ({t(lang, 'game.turn_last_die')})")
    return turn  # a skipped turn: the score line says why


def line(turn: LastTurn, state: GameState, lang: str) -> str | None:
    """The turn as an indented line under the player's score, or None if there is nothing."""
    if not turn.text:
        return None
    text = t(lang, "game.turn_auto", turn=turn.text) if turn.auto else turn.text
    if turn.round != state.round and state.config.format.kind is not FormatKind.LONG:
        text = t(lang, "game.turn_round", n=turn.round, turn=text)
    return f"  ↳ {text}"


def last_player(events: Sequence[Event], before: int) -> int:
    """The seat whose box is on the table after these events (`before` if nobody rolled)."""
    rolled = [e.seat for e in events if isinstance(e, (Rolled, Moved))]  # not the skipped
    return rolled[-1] if rolled else before
