"""Each player's last turn, kept on the game message for as long as it matters (issue: a
scrolling log of notices loses the roll that ended a player's turn once the bots have played).

A turn is kept as compact steps per seat (`d21 m4 d53 n24`: rolled 2-1, closed tile 3, rolled
5-3, no move with tiles 3 and 5 open), with the round it was played in and whether it was
auto-played. It is written out in words only when shown, in the game's language and board style:
the record stays small (a rendered turn with emoji dice took three times the bytes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from core.game.events import Event, Moved, Rolled, RoundStarted, TimedOut, TurnEnd, TurnEnded
from core.game.match import FormatKind
from core.game.rules import Rules
from core.game.state import GameState
from core.text.i18n import t
from core.text.reasons import no_move_reason
from core.text.render import Style, render_dice, render_move

PIECES = " · "
ROLLED, MOVED, NO_MOVE, SHUT, LAST_DIE = "d", "m", "n", "s", "l"


@dataclass(frozen=True, slots=True)
class LastTurn:
    """One player's most recent turn as the score table shows it."""

    round: int = 0
    steps: tuple[str, ...] = ()
    auto: bool = False
    ended: bool = True

    def to_json(self) -> list[object]:
        return [self.round, " ".join(self.steps), int(self.auto), int(self.ended)]

    @classmethod
    def from_json(cls, data: Sequence[object]) -> LastTurn:
        number, steps, auto, ended = data
        return cls(int(str(number)), tuple(str(steps).split()), bool(auto), bool(ended))


Turns = tuple[LastTurn, ...]


def dump(turns: Turns) -> list[list[object]]:
    return [turn.to_json() for turn in turns]


def load(data: Sequence[Sequence[object]]) -> Turns:
    return tuple(LastTurn.from_json(item) for item in data)


def follow(before: GameState, after: GameState, turns: Turns, events: Sequence[Event]) -> Turns:
    """The players' last turns once this click's events have happened."""
    seats = list(turns) + [LastTurn()] * (len(after.seats) - len(turns))
    current = before.round
    for event in events:
        if isinstance(event, RoundStarted):
            current = event.round
        elif isinstance(event, (Rolled, Moved, TimedOut, TurnEnded)):
            seats[event.seat] = _step(seats[event.seat], event, current)
    return tuple(seats)


# The whole match, turn by turn: (seat, turn) in the order they were played (the history's
# replay; a challenge keeps none).
Log = tuple[tuple[int, LastTurn], ...]


def logged(before: GameState, log: Log, events: Sequence[Event]) -> Log:
    """The match's log once these events have happened: a roll (or a timeout) of a player
    whose turn is not the open one starts a new entry; a turn with nothing in it is left out."""
    entries, current = list(log), before.round
    for event in events:
        if isinstance(event, RoundStarted):
            current = event.round
        elif isinstance(event, (Rolled, Moved, TimedOut, TurnEnded)):
            open_ = bool(entries) and entries[-1][0] == event.seat and not entries[-1][1].ended
            turn = _step(entries[-1][1] if open_ else LastTurn(), event, current)
            if open_:
                entries[-1] = (event.seat, turn)
            elif turn.steps or turn.auto:
                entries.append((event.seat, turn))
    return tuple(entries)


def dump_log(log: Log) -> str:
    """The log as one short text: `seat.round.flags.steps` per turn, `|` between turns. The
    flags are `a` (auto-played) and `o` (still open), usually none; the steps go without
    spaces, a move's or a stuck box's tiles one character each (`m19`: tiles 1 and 9). A list
    of JSON lists cost a live game's record twice the bytes (issue 28: a live game in 1 KB)."""
    return "|".join([_dump_entry(seat, turn) for seat, turn in log])


# Every click writes the whole log again, and all of it but the last turn is as it was: each
# entry is written once and looked up after (a lookup costs less than writing it out).
@lru_cache(maxsize=8192)
def _dump_entry(seat: int, turn: LastTurn) -> str:
    flags = f"{'a' * turn.auto}{'o' * (not turn.ended)}"
    return f"{seat}.{turn.round}.{flags}." + "".join(_short_step(step) for step in turn.steps)


def load_log(data: str | Sequence[Sequence[object]]) -> Log:
    """The log as `dump_log` writes it, or as a list of `[seat, round, steps, auto, ended]`
    (records and match histories written before)."""
    if not isinstance(data, str):
        return tuple((int(str(item[0])), LastTurn.from_json(item[1:])) for item in data)
    return tuple(_load_entry(entry) for entry in data.split("|")) if data else ()


TILE_CHARS = "123456789abc"  # tile n as one character (no step's letter among them)
_KINDS = ROLLED + MOVED + NO_MOVE + SHUT + LAST_DIE
_STEP = re.compile(f"[{_KINDS}][^{_KINDS}]*")  # a step: its letter and what follows it


def _short_step(step: str) -> str:
    if step[0] not in (MOVED, NO_MOVE):
        return step
    mask = int(step[1:])
    return step[0] + "".join(c for n, c in enumerate(TILE_CHARS) if mask >> n & 1)


def _long_step(step: str) -> str:
    if step[0] not in (MOVED, NO_MOVE):
        return step
    return f"{step[0]}{sum(1 << TILE_CHARS.index(c) for c in step[1:])}"


def _load_entry(entry: str) -> tuple[int, LastTurn]:
    seat, number, flags, steps = entry.split(".", 3)
    found = tuple(_long_step(step) for step in _STEP.findall(steps))
    return int(seat), LastTurn(int(number), found, "a" in flags, "o" not in flags)


def last_turns(log: Log, seats: int) -> Turns:
    """Each seat's last turn as the log has it (a seat that has not played: an empty turn)."""
    turns = [LastTurn()] * seats
    for seat, turn in log:
        if seat < seats:
            turns[seat] = turn
    return tuple(turns)


def words(steps: tuple[str, ...], rules: Rules, opening: bool, lang: str, style: Style) -> str:
    """A turn's steps in words (`text_of` for a turn that is no longer on a table)."""
    return _words(steps, rules, opening, lang, style)


def _step(turn: LastTurn, event: Event, current: int) -> LastTurn:
    if turn.ended and isinstance(event, (Rolled, TimedOut)):
        turn = LastTurn(round=current, ended=False)
    if isinstance(event, TimedOut):
        return replace(turn, auto=True)
    if isinstance(event, Rolled):
        return _add(turn, ROLLED + "".join(map(str, event.dice)))
    if isinstance(event, Moved):
        return _add(turn, f"{MOVED}{event.tiles}")
    assert isinstance(event, TurnEnded)
    return replace(_add(turn, _ending(event)), ended=True)


def _add(turn: LastTurn, step: str) -> LastTurn:
    return replace(turn, steps=(*turn.steps, step)) if step else turn


def _ending(event: TurnEnded) -> str:
    if event.reason is TurnEnd.NO_MOVE:
        return f"{NO_MOVE}{event.available}"
    if event.reason is TurnEnd.SHUT:
        return SHUT
    if event.reason is TurnEnd.LAST_DIE:
        return LAST_DIE
    return ""  # a skipped turn: the score line says why


def text_of(turn: LastTurn, seat: int, state: GameState, lang: str, style: Style) -> str:
    """The turn in words: `⚁ ⚀ = 3 → 3 · ⚄ ⚂ = 8 ✗ no open tiles add up to 8`."""
    opening = state.config.format.kind is FormatKind.LONG and seat == 1
    return _words(turn.steps, state.config.rules, opening, lang, style)


@lru_cache(maxsize=4096)  # every view shows every seat's last turn; most are unchanged
def _words(steps: tuple[str, ...], rules: Rules, opening: bool, lang: str, style: Style) -> str:
    text, dice = "", tuple[int, ...]()
    for step in steps:
        kind, value = step[0], step[1:]
        if kind == ROLLED:
            dice = tuple(int(face) for face in value)
            piece = render_dice(dice, style)
            text = f"{text}{PIECES}{piece}" if text else piece
        elif kind == MOVED:
            text = f"{text} → {render_move(int(value))}"
        elif kind == NO_MOVE:
            why = no_move_reason(rules, int(value), dice, lang, opening=opening)
            text = f"{text} ✗ {why}"
        elif kind == SHUT:
            text = f"{text}{PIECES}{t(lang, 'game.turn_shut')}"
        elif kind == LAST_DIE:
            text = f"{text} ({t(lang, 'game.turn_last_die')})"
    return text


def line(turn: LastTurn, seat: int, state: GameState, lang: str, style: Style) -> str | None:
    """The turn as an indented line under the player's score, or None if there is nothing."""
    if not turn.steps:
        return None
    text = text_of(turn, seat, state, lang, style)
    if turn.auto:
        text = t(lang, "game.turn_auto", turn=text)
    if turn.round != state.round and state.config.format.kind is not FormatKind.LONG:
        text = t(lang, "game.turn_round", n=turn.round, turn=text)
    return f"  ↳ {text}"


def last_player(events: Sequence[Event], before: int) -> int:
    """The seat whose box is on the table after these events (`before` if nobody rolled)."""
    rolled = [e.seat for e in events if isinstance(e, (Rolled, Moved))]  # not the skipped
    return rolled[-1] if rolled else before
