"""Solo turns played through the real engine by a policy, next to what the solver predicts for it.

A policy (`policies`) is a set of equally likely choices at each decision. Playing draws from
those sets with a `random.Random`; the prediction (`prediction`) averages over them exactly, so
every policy comes with its exact shut chance and expected score to compare with.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from core.game.actions import Action, Begin, Choose, Roll
from core.game.ai.policies import Player, Policy, make_player
from core.game.ai.prediction import Prediction, predict
from core.game.ai.solver import Objective
from core.game.dice import DiceSource, SeededDice
from core.game.engine import apply, new_game
from core.game.match import MatchConfig
from core.game.rules import Rules
from core.game.state import GameState, Phase

PLAYER_ID = "simulator"


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
