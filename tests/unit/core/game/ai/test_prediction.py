"""A policy's exact prediction: for optimal play it is the solver's own value."""

from __future__ import annotations

import pytest

from core.game.ai.policies import Policy
from core.game.ai.prediction import predict
from core.game.ai.solver import Objective, solve
from core.game.rules import PRESETS, Rules

CLASSIC = PRESETS["classic"]


@pytest.mark.parametrize("rules", [CLASSIC, PRESETS["hard"], PRESETS["sailors"]], ids=Rules.to_str)
def test_optimal_prediction_is_the_solver_value(rules: Rules) -> None:
    """Shut-optimal play predicts the solver's chance to shut; sum-optimal its expected sum."""
    full = rules.full_mask
    shut = predict(rules, Policy.OPTIMAL, Objective.SHUT)
    assert shut.shut_rate == pytest.approx(solve(rules, Objective.SHUT).value(full), abs=1e-12)
    by_sum = predict(rules, Policy.OPTIMAL, Objective.SUM)
    assert by_sum.mean_score == pytest.approx(solve(rules, Objective.SUM).value(full), abs=1e-9)
    assert by_sum.shut_rate <= shut.shut_rate
