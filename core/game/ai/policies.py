"""The simulated player's policies: at each decision, a set of equally likely choices.

The optimal and greedy policies always offer one choice, the random policy every legal one;
`simulation` plays them through the engine and `prediction` averages over them exactly.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol

from core.game.ai.solver import Objective, Table, solve
from core.game.closing import RollKey
from core.game.moves import Options
from core.game.rules import Rules


class Policy(StrEnum):
    """How the simulated player decides."""

    OPTIMAL = "optimal"  # the solver's best dice count and move for an objective
    GREEDY = "greedy"  # one die whenever allowed; the move with the highest tile, then fewest
    RANDOM = "random"  # any allowed dice count and any legal move, uniformly


class Player(Protocol):
    """The choices a policy makes, each set equally likely."""

    def dice_counts(self, board: int) -> tuple[int, ...]:
        """The dice counts this policy picks among, before rolling on `board`."""
        ...

    def moves(self, board: int, dice: tuple[int, ...]) -> tuple[int, ...]:
        """The moves this policy picks among for `dice` (empty when none is legal)."""
        ...


class MoveBook:
    """`Rules.allows`, remembered per board and roll (the turn revisits the same few)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._known: dict[tuple[int, RollKey], Options] = {}

    def key(self, board: int, dice: tuple[int, ...]) -> tuple[int, RollKey]:
        """Rolls that allow the same moves share a key: the board and `Rules.roll_key`."""
        return (board, self.rules.roll_key(dice))

    def options(self, board: int, dice: tuple[int, ...]) -> Options:
        key = self.key(board, dice)
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = self.rules.allows(board, dice)
        return found


class OptimalPlayer:
    """The solver's choice for one objective, ties broken as the solver's own ranking does."""

    def __init__(self, book: MoveBook, table: Table) -> None:
        self.book = book
        self.table = table
        self._dice: dict[int, tuple[int, ...]] = {}
        self._moves: dict[tuple[int, RollKey], tuple[int, ...]] = {}

    def dice_counts(self, board: int) -> tuple[int, ...]:
        counts = self._dice.get(board)
        if counts is None:
            counts = self._dice[board] = (self.table.best_dice(board),)
        return counts

    def moves(self, board: int, dice: tuple[int, ...]) -> tuple[int, ...]:
        key = self.book.key(board, dice)
        if key not in self._moves:
            best = self.table.best_move(board, dice)
            self._moves[key] = () if best is None else (best,)
        return self._moves[key]


class GreedyPlayer:
    """One die whenever allowed; close the move holding the highest tile, ties by fewer tiles."""

    def __init__(self, book: MoveBook) -> None:
        self.book = book

    def dice_counts(self, board: int) -> tuple[int, ...]:
        return (min(self.book.rules.dice_choices(board)),)

    def moves(self, board: int, dice: tuple[int, ...]) -> tuple[int, ...]:
        legal = self.book.options(board, dice).moves
        return (max(legal, key=_greedy_rank),) if legal else ()


def _greedy_rank(move: int) -> tuple[int, int, int]:
    """Highest tile first, then fewer tiles; masks compared as numbers rank tiles high to low."""
    return move.bit_length(), -move.bit_count(), move


class RandomPlayer:
    """Every allowed dice count and every legal move, equally likely."""

    def __init__(self, book: MoveBook) -> None:
        self.book = book

    def dice_counts(self, board: int) -> tuple[int, ...]:
        return self.book.rules.dice_choices(board)

    def moves(self, board: int, dice: tuple[int, ...]) -> tuple[int, ...]:
        return self.book.options(board, dice).moves


def make_player(rules: Rules, policy: Policy, objective: Objective) -> tuple[Player, MoveBook]:
    """The player for a policy (the objective only matters to the optimal one), with its book."""
    book = MoveBook(rules)
    if policy is Policy.OPTIMAL:
        return OptimalPlayer(book, solve(rules, objective)), book
    if policy is Policy.GREEDY:
        return GreedyPlayer(book), book
    return RandomPlayer(book), book
