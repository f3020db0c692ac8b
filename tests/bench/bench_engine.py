"""Engine benchmark: engine actions per second and simulated solo turns per second per policy.

Run `python -m tests.bench.bench_engine [--games N] [--json PATH]` from the project root. Every
action goes through `core.game.engine.apply`; the solver tables are built before the clock starts.
It reports numbers only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.game.ai.policies import Policy
from core.game.ai.prediction import predict
from core.game.ai.simulation import play_games
from core.game.ai.solver import Objective
from core.game.rules import PRESETS, Rules

RULE_SETS = ("classic", "hard", "sailors", "twelve")
SEED = 1


def measure(rules: Rules, policy: Policy, games: int) -> dict[str, float]:
    """Games and engine actions per second for one rule set and policy, tables warm."""
    objective = Objective(rules.scoring.value)
    predict(rules, policy, objective)  # builds the solver table outside the timing
    start = time.perf_counter()
    tally = play_games(rules, games, policy, SEED, objective)
    seconds = time.perf_counter() - start
    return {
        "games_per_second": games / seconds,
        "actions_per_second": tally.actions / seconds,
        "actions_per_game": tally.actions / games,
    }


def run(games: int) -> dict[str, dict[str, dict[str, float]]]:
    return {
        name: {policy.value: measure(PRESETS[name], policy, games) for policy in Policy}
        for name in RULE_SETS
    }


def print_report(results: dict[str, dict[str, dict[str, float]]]) -> None:
    print(f"{'rule set':10} {'policy':8} {'games/s':>10} {'actions/s':>11} {'actions/game':>13}")
    for name, by_policy in results.items():
        for policy, numbers in by_policy.items():
            print(
                f"{name:10} {policy:8} {numbers['games_per_second']:10,.0f} "
                f"{numbers['actions_per_second']:11,.0f} {numbers['actions_per_game']:13.2f}"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5000, help="turns per rule set and policy")
    parser.add_argument("--json", type=Path, help="also write the numbers as JSON to this path")
    args = parser.parse_args(argv)
    results = run(args.games)
    print_report(results)
    if args.json:
        args.json.write_text(json.dumps({"games": args.games, "results": results}, indent=2))


if __name__ == "__main__":
    main()
