"""The state of one channel's game as a frozen value with a compact text form that round-trips."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from urllib.parse import quote, unquote

from core.game.errors import CorruptState
from core.game.match import MatchConfig

FORMAT_VERSION = "S1"


class Phase(StrEnum):
    LOBBY = "lobby"
    ROLL = "roll"  # the player to act must roll
    CHOOSE = "choose"  # the player to act must pick a move for `dice`
    OVER = "over"


class Ending(StrEnum):
    """Why a game is over."""

    NONE = "-"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    STOPPED = "stopped"
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at the table and their match so far."""

    id: str
    name: str
    bot: bool = False
    total: int = 0
    out: bool = False  # eliminated (elimination format)
    dropped: bool = False  # absent three turns in a row
    auto_turns: int = 0  # turns the deadline played for them in a row
    rounds_won: int = 0
    shuts: int = 0
    # A human who has not made a decision (a roll or a move of their own) since the match
    # began; a match that ends with every human idle is void (it counts for nothing).
    idle: bool = False
    left: bool = False  # dropped because they typed `leave`, not for missed turns

    @property
    def active(self) -> bool:
        """Still takes turns."""
        return not (self.out or self.dropped)

    def to_str(self) -> str:
        flags = (
            ("b" if self.bot else "") + ("o" if self.out else "") + ("d" if self.dropped else "")
            + ("i" if self.idle else "") + ("l" if self.left else "")
        )  # fmt: skip
        fields = (quote(self.id, safe=""), quote(self.name, safe=""), flags or "-")
        numbers = (self.total, self.auto_turns, self.rounds_won, self.shuts)
        return ":".join((*fields, *map(str, numbers)))

    @classmethod
    def from_str(cls, text: str) -> Seat:
        sid, name, flags, total, in_a_row, won, shuts = text.split(":")
        return cls(
            unquote(sid),
            unquote(name),
            "b" in flags,
            int(total),
            "o" in flags,
            "d" in flags,
            int(in_a_row),
            int(won),
            int(shuts),
            "i" in flags,
            "l" in flags,
        )


Scores = tuple[int | None, ...]  # one entry per seat; None = did not play (yet)


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the engine needs; stored as one Redis value via `to_str`."""

    config: MatchConfig
    seats: tuple[Seat, ...]
    phase: Phase = Phase.LOBBY
    version: int = 0
    round: int = 0
    starter: int = 0
    turn: int = -1
    board: int = 0  # open tiles of the turn being played (the shared box in the long game)
    dice: tuple[int, ...] = ()
    played: Scores = ()
    history: tuple[Scores, ...] = ()
    ending: Ending = Ending.NONE
    winners: tuple[int, ...] = ()
    ends_turn: bool = False  # the pending choice is a last-die move that ends the turn
    round_seats: int = 0  # bitmask of the seats still playing when this round began

    @property
    def host(self) -> Seat:
        return self.seats[0]

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def to_act(self) -> Seat | None:
        return self.seats[self.turn] if self.phase in (Phase.ROLL, Phase.CHOOSE) else None

    def in_round(self, index: int) -> bool:
        """Was this seat still playing when the current round began?"""
        return bool(self.round_seats >> index & 1)

    @property
    def void(self) -> bool:
        """A started match in which no human has made a decision yet (all timed out or left)."""
        return self.round > 0 and all(seat.idle for seat in self.seats if not seat.bot)

    def seat_of(self, user_id: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.id == user_id), None)

    def evolve(self, **changes: object) -> GameState:
        return replace(self, **changes)  # type: ignore[arg-type]

    def with_seat(self, index: int, **changes: object) -> GameState:
        seats = list(self.seats)
        seats[index] = replace(seats[index], **changes)  # type: ignore[arg-type]
        return replace(self, seats=tuple(seats))

    def to_str(self) -> str:
        parts = [
            FORMAT_VERSION,
            _config_text(self.config),
            self.phase.value,
            str(self.version),
            str(self.round),
            str(self.starter),
            str(self.turn),
            str(self.board),
            "".join(map(str, self.dice)) or "-",
            ",".join(_seat_text(s) for s in self.seats),
            _scores_str(self.played),
            "/".join(_scores_str(r) for r in self.history) or "-",
            self.ending.value,
            ".".join(map(str, self.winners)) or "-",
            "e" if self.ends_turn else "-",
            str(self.round_seats),
        ]
        return ";".join(parts)

    @classmethod
    def from_str(cls, text: str) -> GameState:
        try:
            return _parse(text.split(";"))
        except (ValueError, IndexError) as exc:
            raise CorruptState(detail=text[:80]) from exc


# Configs and seats change far less often than states are written: remember their text.
@lru_cache(maxsize=4096)
def _config_text(config: MatchConfig) -> str:
    return config.to_str()


@lru_cache(maxsize=16384)
def _seat_text(seat: Seat) -> str:
    return seat.to_str()


def _parse(parts: list[str]) -> GameState:
    tag, config, phase, version, rnd, starter, turn, board, dice = parts[:9]
    seats, played, history, ending, winners, ends_turn, round_seats = parts[9:]
    if tag != FORMAT_VERSION:
        raise ValueError(tag)
    return GameState(
        config=MatchConfig.from_str(config),
        seats=tuple(Seat.from_str(s) for s in seats.split(",")) if seats else (),
        phase=Phase(phase),
        version=int(version),
        round=int(rnd),
        starter=int(starter),
        turn=int(turn),
        board=int(board),
        dice=() if dice == "-" else tuple(int(d) for d in dice),
        played=_scores_parse(played),
        history=() if history == "-" else tuple(_scores_parse(r) for r in history.split("/")),
        ending=Ending(ending),
        winners=() if winners == "-" else tuple(int(w) for w in winners.split(".")),
        ends_turn=ends_turn == "e",
        round_seats=int(round_seats),
    )


def _scores_str(scores: Scores) -> str:
    return ".".join("-" if s is None else str(s) for s in scores) or "~"


def _scores_parse(text: str) -> Scores:
    if text == "~":
        return ()
    return tuple(None if s == "-" else int(s) for s in text.split("."))
