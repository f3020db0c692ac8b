"""Solo turns played through the real engine by a policy, next to what the solver predicts for it.

A policy is a set of equally likely choices at each decision: the optimal and greedy policies
always offer one, the random policy every legal one. Playing draws from those sets with a
`random.Random`; predicting averages over them exactly, turn state by turn state, so every policy
(not only the optimal one) comes with its exact shut chance and expected score to compare with.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Protocol

from core.game.actions import Action, Begin, Choose, Roll
from core.game.ai.solver import Objective, Table, solve, sorted_rolls
from core.game.dice import DiceSource, SeededDice
from core.game.engine import apply, new_game
from core.game.match import MatchConfig
from core.game.moves import Options, options
from core.game.rules import CloseRule, Rules, score_of
from core.game.state import GameState, Phase

PLAYER_ID = "simulator"
Moments = tuple[float, float, float]  # chance to shut, expected score, expected squared score


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
    """`moves.options`, remembered per board and roll (the turn revisits the same few)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._by_sum = rules.close is CloseRule.ANY  # only the total matters to `any`
        self._known: dict[tuple[int, object], Options] = {}

    def key(self, board: int, dice: tuple[int, ...]) -> tuple[int, object]:
        """Rolls that allow the same moves share a key: the total, or the dice in any order."""
        return (board, sum(dice) if self._by_sum else tuple(sorted(dice)))

    def options(self, board: int, dice: tuple[int, ...]) -> Options:
        key = self.key(board, dice)
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = options(self.rules, board, dice)
        return found


class OptimalPlayer:
    """The solver's choice for one objective, ties broken as the solver's own ranking does."""

    def __init__(self, book: MoveBook, table: Table) -> None:
        self.book = book
        self.table = table
        self._dice: dict[int, tuple[int, ...]] = {}
        self._moves: dict[tuple[int, object], tuple[int, ...]] = {}

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


@dataclass(frozen=True, slots=True)
class Tally:
    """What a batch of games measured; batches (one per worker) add up."""

    games: int = 0
    shuts: int = 0
    score_total: int = 0
    score_squares: int = 0
    actions: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.games + other.games,
            self.shuts + other.shuts,
            self.score_total + other.score_total,
            self.score_squares + other.score_squares,
            self.actions + other.actions,
        )


@dataclass(frozen=True, slots=True)
class Prediction:
    """The exact chance to shut and score distribution moments of a policy, from the start."""

    shut_rate: float
    mean_score: float
    score_variance: float


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Measured outcomes of the simulated turns and the policy's exact prediction."""

    rules: Rules
    policy: Policy
    objective: Objective
    tally: Tally
    prediction: Prediction

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def shuts(self) -> int:
        return self.tally.shuts

    @property
    def shut_rate(self) -> float:
        return self.tally.shuts / self.tally.games if self.tally.games else 0.0

    @property
    def mean_score(self) -> float:
        return self.tally.score_total / self.tally.games if self.tally.games else 0.0

    @property
    def expected_shut_rate(self) -> float:
        return self.prediction.shut_rate

    @property
    def expected_mean_score(self) -> float:
        return self.prediction.mean_score

    @property
    def z_score(self) -> float | None:
        """Measured shut rate against the prediction, in binomial standard errors."""
        p = self.prediction.shut_rate
        return _z(self.shut_rate, p, p * (1.0 - p), self.games)

    @property
    def score_z_score(self) -> float | None:
        """Measured mean score against the prediction, in standard errors of the mean."""
        mean = self.prediction.mean_score
        return _z(self.mean_score, mean, self.prediction.score_variance, self.games)


def _z(measured: float, expected: float, variance: float, games: int) -> float | None:
    """None when the prediction leaves no room for noise (or nothing was played)."""
    if games == 0 or variance <= 1e-15:
        return None
    return (measured - expected) / math.sqrt(variance / games)


def simulate(
    rules: Rules,
    games: int,
    policy: Policy = Policy.OPTIMAL,
    seed: int = 0,
    objective: Objective = Objective.SHUT,
) -> SimulationResult:
    """Play `games` solo turns through the engine (deterministic for a seed) and predict them."""
    tally = play_games(rules, games, policy, seed, objective)
    return SimulationResult(rules, policy, objective, tally, predict(rules, policy, objective))


def play_games(rules: Rules, games: int, policy: Policy, seed: int, objective: Objective) -> Tally:
    """Play the turns only: dice from `SeededDice(seed)`, random picks from a separate stream."""
    player, _ = make_player(rules, policy, objective)
    dice = SeededDice(seed)
    # A stream of its own, so the policy's picks never echo the dice drawn from the same seed.
    chooser = random.Random(f"policy:{seed}")
    start = started_game(rules)
    shuts = total = squares = actions = 0
    for _ in range(games):
        final, used = play_turn(start, player, dice, chooser)
        score = final.played[0] or 0
        shuts += final.board == 0
        total += score
        squares += score * score
        actions += used
    return Tally(games, shuts, total, squares, actions)


def worker_batches(games: int, seed: int, workers: int) -> list[tuple[int, int]]:
    """Split the games over workers as (games, seed) pairs; one worker keeps `seed` itself."""
    if workers == 1:
        return [(games, seed)]
    share, extra = divmod(games, workers)
    sizes = [share + (index < extra) for index in range(workers)]
    return [(size, derive_seed(seed, index)) for index, size in enumerate(sizes) if size]


def derive_seed(seed: int, index: int) -> int:
    """A worker's seed: unrelated to its neighbours' though all come from one seed."""
    digest = hashlib.sha256(f"{seed}:worker:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def started_game(rules: Rules) -> GameState:
    """A one-player, one-round match right after Begin: every simulated turn starts from it."""
    lobby = new_game(MatchConfig(rules=rules), PLAYER_ID, "Simulator")
    state, _ = apply(lobby, Begin(PLAYER_ID), SeededDice(0))
    return state


def play_turn(
    state: GameState, player: Player, dice: DiceSource, chooser: random.Random
) -> tuple[GameState, int]:
    """Apply the player's actions until the match is over; the final state and actions used."""
    actions = 0
    while state.phase is not Phase.OVER:
        state, _ = apply(state, _next_action(state, player, chooser), dice)
        actions += 1
    return state, actions


_ROLLS = {count: Roll(PLAYER_ID, count=count) for count in (1, 2, 3)}
_CHOOSES: dict[int, Choose] = {}  # actions are frozen values: one per move serves every game


def _next_action(state: GameState, player: Player, chooser: random.Random) -> Action:
    if state.phase is Phase.ROLL:
        return _ROLLS[_pick(player.dice_counts(state.board), chooser)]
    tiles = _pick(player.moves(state.board, state.dice), chooser)
    action = _CHOOSES.get(tiles)
    if action is None:
        action = _CHOOSES[tiles] = Choose(PLAYER_ID, tiles=tiles)
    return action


def _pick(choices: Sequence[int], chooser: random.Random) -> int:
    return choices[0] if len(choices) == 1 else chooser.choice(choices)


@cache
def predict(rules: Rules, policy: Policy, objective: Objective) -> Prediction:
    """The policy's exact chance to shut and score moments from a full board."""
    player, book = make_player(rules, policy, objective)
    shut, mean, squares = _policy_values(rules, player, book)[rules.full_mask]
    return Prediction(shut, mean, max(0.0, squares - mean * mean))


def _policy_values(rules: Rules, player: Player, book: MoveBook) -> list[Moments]:
    """Each board's moments before rolling; every move shrinks the board, so one pass suffices."""
    ends = [_end_moments(rules, board) for board in range(rules.full_mask + 1)]
    values = [ends[0]]
    for board in range(1, rules.full_mask + 1):
        counts = player.dice_counts(board)
        rolls = [_roll_moments(board, count, player, book, values, ends) for count in counts]
        values.append(_mean(rolls))
    return values


def _end_moments(rules: Rules, board: int) -> Moments:
    score = float(score_of(rules, board))
    return (1.0 if board == 0 else 0.0, score, score * score)


def _roll_moments(
    board: int,
    count: int,
    player: Player,
    book: MoveBook,
    values: list[Moments],
    ends: list[Moments],
) -> Moments:
    """The moments of rolling `count` dice on `board` and following the policy after."""
    parts: list[tuple[float, Moments]] = []
    for dice, ways in sorted_rolls(count):
        moves = player.moves(board, dice)
        after = ends if not moves or book.options(board, dice).ends_turn else values
        outcomes = [after[board ^ move] for move in moves] or [ends[board]]
        parts.append((ways / 6**count, _mean(outcomes)))
    return _weighted(parts)


def _mean(items: Sequence[Moments]) -> Moments:
    return _weighted([(1.0 / len(items), item) for item in items])


def _weighted(parts: Sequence[tuple[float, Moments]]) -> Moments:
    shut = sum(weight * item[0] for weight, item in parts)
    mean = sum(weight * item[1] for weight, item in parts)
    return shut, mean, sum(weight * item[2] for weight, item in parts)
