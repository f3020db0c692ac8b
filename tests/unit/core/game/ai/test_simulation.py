"""Simulated solo turns: reproducible, always legal, and in line with the solver."""

from __future__ import annotations

import pytest

from core.game.ai.policies import Policy
from core.game.ai.simulation import Tally, play_games, simulate, worker_batches
from core.game.ai.solver import Objective
from core.game.rules import PRESETS, CloseRule, Rules

CLASSIC = PRESETS["classic"]
RULE_SETS = [
    CLASSIC,
    PRESETS["hard"],
    PRESETS["sailors"],
    PRESETS["kids"],
    Rules(close=CloseRule.SUM_OR_DICE, last_die=True),
    Rules(close=CloseRule.SEPARATE),
]


def test_the_same_seed_plays_the_same_games() -> None:
    """Two runs with one seed measure exactly the same; another seed plays other games."""
    for policy in Policy:
        first = play_games(CLASSIC, 150, policy, 7, Objective.SHUT)
        assert first == play_games(CLASSIC, 150, policy, 7, Objective.SHUT)
        assert first != play_games(CLASSIC, 150, policy, 8, Objective.SHUT)


@pytest.mark.parametrize("policy", [Policy.GREEDY, Policy.RANDOM])
@pytest.mark.parametrize("rules", RULE_SETS, ids=Rules.to_str)
def test_greedy_and_random_turns_play_through_the_engine(policy: Policy, rules: Rules) -> None:
    """The engine accepts every action of greedy and random turns (it refuses illegal ones)."""
    tally = play_games(rules, 100, policy, 3, Objective.SHUT)
    assert tally.games == 100 and 0 <= tally.shuts <= 100
    assert tally.actions >= tally.games


def test_optimal_beats_greedy_on_mean_score() -> None:
    """Over 1500 turns with a fixed seed, sum-optimal play leaves a lower mean score than greedy."""
    optimal = simulate(CLASSIC, 1500, Policy.OPTIMAL, 11, Objective.SUM)
    greedy = simulate(CLASSIC, 1500, Policy.GREEDY, 11, Objective.SUM)
    assert optimal.mean_score < greedy.mean_score - 0.5


def test_measured_rates_agree_with_predictions() -> None:
    """800 turns per policy land within four standard errors of the exact prediction."""
    for policy in Policy:
        result = simulate(CLASSIC, 800, policy, 5, Objective.SHUT)
        assert 0.0 <= result.shut_rate <= 1.0
        assert result.z_score is not None and abs(result.z_score) < 4
        assert result.score_z_score is not None and abs(result.score_z_score) < 4


def test_worker_batches_split_the_games_with_their_own_seeds() -> None:
    """The batches add up to the games; one worker keeps the seed, several get distinct ones."""
    assert worker_batches(1000, 42, 1) == [(1000, 42)]
    batches = worker_batches(1001, 42, 4)
    assert sum(games for games, _ in batches) == 1001
    assert len({seed for _, seed in batches}) == 4
    assert worker_batches(1001, 42, 4) == batches
    assert len(worker_batches(2, 42, 4)) == 2


def test_tallies_add_up() -> None:
    """Two batches' tallies add field by field."""
    total = Tally(10, 1, 100, 1500, 70) + Tally(5, 2, 40, 400, 30)
    assert total == Tally(15, 3, 140, 1900, 100)
