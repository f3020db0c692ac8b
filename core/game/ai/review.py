"""Post-game review: every decision of a turn graded against exact optimal play.

A decision is any point with two or more legal options: the dice count before a roll (where
the one-die rule allows one or two dice) and the tiles closed after a roll. Each is valued by
the solver's table for the rule set and the objective the match rewards, so reviewing a turn
only reads tables. The loss of a choice is how much worse its value is than the best option's,
in the objective's unit (points, tiles, or chance to shut); equal values count as best. The
two-player long game is graded by its own table, the chance to win the match
(`core.game.ai.review_long`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.game.ai.solver import TIE, Objective, Table, solve
from core.game.errors import ShutboxError
from core.game.moves import Options, mask_of, move_label
from core.game.numbers import is_digits
from core.game.rules import Rules

SIDES = 6


class InvalidTurn(ShutboxError):
    """A written turn that cannot be read, or a step the rules do not allow."""

    key = "error.review.step"


class Aim(StrEnum):
    """What a review grades against: one of the one-turn objectives, or the long game's win."""

    SUM = "sum"  # expected score (points)
    COUNT = "count"  # expected tiles left
    SHUT = "shut"  # chance to shut the box
    WIN = "win"  # chance to win the two-player long game

    @classmethod
    def of(cls, objective: Objective) -> Aim:
        return cls(objective.value)

    @property
    def is_chance(self) -> bool:
        """Losses are probabilities (shown as percentage points), not points or tiles."""
        return self in (Aim.SHUT, Aim.WIN)


class Kind(StrEnum):
    DICE = "dice"  # how many dice to roll
    MOVE = "move"  # which tiles to close after a roll


@dataclass(frozen=True, slots=True)
class Step:
    """One roll of a turn and the tiles closed with it (0: nothing could be closed)."""

    dice: tuple[int, ...]
    move: int


@dataclass(frozen=True, slots=True)
class Decision:
    """A graded choice: for DICE `chosen` and `best` are dice counts, for MOVE tile masks."""

    kind: Kind
    roll: tuple[int, ...]
    chosen: int
    best: int
    loss: float

    @property
    def was_best(self) -> bool:
        return self.loss <= TIE

    @property
    def chosen_label(self) -> str:
        return self._label(self.chosen)

    @property
    def best_label(self) -> str:
        return self._label(self.best)

    def _label(self, value: int) -> str:
        return str(value) if self.kind is Kind.DICE else move_label(value)

    def to_str(self) -> str:
        """Compact form kept with a game: `m43:64` (kind+dice, chosen) when it was the best,
        else `m43:8:64:0.25` (… best, loss). Most choices are: a game's record stays small."""
        head = ("d" if self.kind is Kind.DICE else "m") + "".join(map(str, self.roll))
        if self.was_best and self.best == self.chosen:
            return f"{head}:{self.chosen}"
        return f"{head}:{self.chosen}:{self.best}:{self.loss:.6g}"

    @classmethod
    def from_str(cls, text: str) -> Decision:
        head, chosen, *worse = text.split(":")
        kind = Kind.DICE if head[0] == "d" else Kind.MOVE
        best, loss = (int(worse[0]), float(worse[1])) if worse else (int(chosen), 0.0)
        return cls(kind, tuple(int(d) for d in head[1:]), int(chosen), best, loss)


@dataclass(frozen=True, slots=True)
class Tally:
    """Graded decisions kept as totals only: how many, how many were the best, their loss."""

    count: int = 0
    best: int = 0
    loss: float = 0.0

    @classmethod
    def of(cls, decisions: Sequence[Decision]) -> Tally:
        best = sum(decision.was_best for decision in decisions)
        return cls(len(decisions), best, sum(decision.loss for decision in decisions))

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.count + other.count, self.best + other.best, self.loss + other.loss)

    def to_str(self) -> str:
        """`+12:9:0.53` (count, best, loss): a word no decision starts with."""
        return f"+{self.count}:{self.best}:{self.loss:.6g}"

    @classmethod
    def from_str(cls, text: str) -> Tally:
        count, best, loss = text.removeprefix("+").split(":")
        return cls(int(count), int(best), float(loss))


@dataclass(frozen=True, slots=True)
class Review:
    """The graded decisions of one or more turns; `folded` counts more kept only as totals."""

    decisions: tuple[Decision, ...]
    folded: Tally = Tally()

    @property
    def count(self) -> int:
        return len(self.decisions) + self.folded.count

    @property
    def expected_loss(self) -> float:
        return sum(decision.loss for decision in self.decisions) + self.folded.loss

    @property
    def best_count(self) -> int:
        return sum(decision.was_best for decision in self.decisions) + self.folded.best

    @property
    def accuracy(self) -> float | None:
        """Percentage of decisions that were best; None when there was nothing to decide."""
        if not self.count:
            return None
        return 100.0 * self.best_count / self.count

    def __add__(self, other: Review) -> Review:
        return Review(self.decisions + other.decisions, self.folded + other.folded)


def objective_for(rules: Rules) -> Objective:
    """The objective a rule set's scoring rewards (`sum` scores points, `count` tiles)."""
    return Objective(rules.scoring.value)


def review_turn(rules: Rules, objective: Objective, steps: Sequence[Step]) -> Review:
    """Grade a turn played from a full box; an impossible step raises `InvalidTurn`."""
    return review_from(solve(rules, objective), rules.full_mask, steps)


def review_from(table: Table, available: int, steps: Sequence[Step]) -> Review:
    """Grade steps played from `available` open tiles."""
    decisions: list[Decision] = []
    for number, step in enumerate(steps, start=1):
        if not available:
            raise InvalidTurn("error.review.after_end", step=number)
        decisions.extend(_grade_step(table, available, step, number))
        available, ended = _after(table.rules, available, step)
        if ended and number < len(steps):
            raise InvalidTurn("error.review.after_end", step=number + 1)
    return Review(tuple(decisions))


def _grade_step(table: Table, available: int, step: Step, number: int) -> Iterable[Decision]:
    check_step(table.rules, available, step, number)
    graded = (grade_dice(table, available, len(step.dice)), grade_move(table, available, step))
    return [decision for decision in graded if decision is not None]


def check_step(rules: Rules, available: int, step: Step, number: int) -> Options:
    """What the step's roll allows from `available`; `InvalidTurn` unless the step is legal."""
    counts = rules.dice_choices(available)
    if len(step.dice) not in counts:
        allowed = "/".join(map(str, counts))
        raise InvalidTurn("error.review.dice", step=number, allowed=allowed)
    found = rules.allows(available, step.dice)
    if step.move not in found.moves and (step.move or found.moves):
        raise InvalidTurn("error.review.move", step=number)
    return found


def _after(rules: Rules, available: int, step: Step) -> tuple[int, bool]:
    """The open tiles after a step, and whether the turn ended with it."""
    found = rules.allows(available, step.dice)
    left = available ^ step.move
    stuck = not step.move and not rules.rolls_again(step.dice, long_game=False)
    return left, stuck or found.ends_turn or not left


def grade_dice(table: Table, available: int, chosen: int) -> Decision | None:
    """The choice of dice count before a roll; None where the rules allow only one count."""
    counts = table.rules.dice_choices(available)
    if len(counts) < 2:
        return None
    values = {count: table.dice_value(available, count) for count in counts}
    best = table.best_dice(available)
    loss = _loss(table, values[best], values[chosen])
    return Decision(Kind.DICE, (), chosen, chosen if loss <= TIE else best, loss)


def grade_move(table: Table, available: int, step: Step) -> Decision | None:
    """The choice of tiles after a roll (a legal one); None when the roll left no choice."""
    found = table.rules.allows(available, step.dice)
    if len(found.moves) < 2:
        return None
    after = table.terminal if found.ends_turn else table.values
    values = {move: after[available ^ move] for move in found.moves}
    best = table.best_move(available, step.dice)
    assert best is not None  # there are at least two moves
    loss = _loss(table, values[best], values[step.move])
    if loss <= TIE:
        best = step.move  # ties count as best: the player's own choice is the one to show
    return Decision(Kind.MOVE, step.dice, step.move, best, loss)


def _loss(table: Table, best: float, chosen: float) -> float:
    """How much worse `chosen` is than `best`, never negative; rounding noise is no loss."""
    loss = chosen - best if not table.objective.maximises else best - chosen
    return 0.0 if loss <= TIE else loss


def parse_turn(text: str) -> tuple[Step, ...]:
    """Read `4-3:7 6-2:8 2-1:2+1 5-5:-`: each step `ROLL:MOVE`, faces by `-`, tiles by `+`."""
    words = text.split()
    if not words:
        raise InvalidTurn("error.review.empty")
    return tuple(_parse_step(word, number) for number, word in enumerate(words, start=1))


def _parse_step(word: str, number: int) -> Step:
    roll, sep, move = word.partition(":")
    dice = _numbers(roll, "-", number, word)
    if not sep or not move or any(not 1 <= die <= SIDES for die in dice):
        raise InvalidTurn("error.review.syntax", step=number, text=word)
    tiles = () if move == "-" else _numbers(move, "+", number, word)
    if len(set(tiles)) != len(tiles) or any(tile < 1 for tile in tiles):
        raise InvalidTurn("error.review.syntax", step=number, text=word)
    return Step(dice, mask_of(tiles))


def _numbers(text: str, sep: str, number: int, word: str) -> tuple[int, ...]:
    parts = text.split(sep)
    if not all(is_digits(part) and len(part) <= 2 for part in parts):
        raise InvalidTurn("error.review.syntax", step=number, text=word)
    return tuple(int(part) for part in parts)


def decision_json(decision: Decision, digits: int = 6) -> dict[str, object]:
    """The CLI's form of a decision: a dice choice shows `"roll": "dice"`."""
    roll = "dice" if decision.kind is Kind.DICE else "-".join(map(str, decision.roll))
    return {
        "roll": roll,
        "move": decision.chosen_label,
        "best": decision.best_label,
        "loss": round(decision.loss, digits),
    }


def review_json(review: Review, digits: int = 6) -> dict[str, object]:
    accuracy = review.accuracy
    return {
        "accuracy": None if accuracy is None else round(accuracy, 2),
        "expected_loss": round(review.expected_loss, digits),
        "decisions": [decision_json(decision, digits) for decision in review.decisions],
    }
