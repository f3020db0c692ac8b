"""A policy's exact prediction: for optimal play it is the solver's own value."""

from __future__ import annotations

import pytest

from core.game.ai.odds import scoring_objective
from core.game.ai.policies import Policy
from core.game.ai.prediction import predict
from core.game.ai.solver import Objective, solve
from core.game.rules import Rules
from tests.unit.core.rule_sets import NINE_TILE_RULE_SETS


@pytest.mark.parametrize("rules", NINE_TILE_RULE_SETS, ids=Rules.to_str)
def test_optimal_prediction_is_the_solver_value(rules: Rules) -> None:
    """Shut-optimal play predicts the solver's chance to shut; play optimal for the rules' own
    scoring (the sum, or the count) its expected score. For every close rule with every on/off
    option (a table of 12 tiles takes seconds to predict)."""
    full = rules.full_mask
    shut = predict(rules, Policy.OPTIMAL, Objective.SHUT)
    assert shut.shut_rate == pytest.approx(solve(rules, Objective.SHUT).value(full), abs=1e-12)
    aim = scoring_objective(rules)
    by_score = predict(rules, Policy.OPTIMAL, aim)
    assert by_score.mean_score == pytest.approx(solve(rules, aim).value(full), abs=1e-9)
    assert by_score.shut_rate <= shut.shut_rate
