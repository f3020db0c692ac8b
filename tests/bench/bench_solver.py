"""Solver benchmark: table build times per preset and objective, every rule set's expected-value
table (CPU seconds, from nothing, in one process), hint and move-generation costs.

Run `python -m tests.bench.bench_solver [--json PATH]` from the project root. It reports numbers
only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.game.ai.solver import Objective, exact_p_shut, roll_outcomes, solve
from core.game.ai.solver_long import solve_long
from core.game.closing import found_by_total
from core.game.options import every_rule_set
from core.game.rules import PRESETS, CloseRule, Rules
from tests.unit.core.rule_sets import random_states

RULE_SETS: dict[str, Rules] = {
    **PRESETS,
    "twelve-3-dice": Rules(tiles=12, dice=3),
    "sailors-last-die": Rules(close=CloseRule.SUM_OR_DICE, last_die=True),
}
LONG_GAME_SETS = ("classic", "hard", "sailors", "kids", "ten", "sailors-last-die")
LOOKUPS = 2000


def seconds(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def clear_caches() -> None:
    for cached in (solve, roll_outcomes, solve_long, found_by_total):
        cached.cache_clear()


def every_table_cpu() -> dict[str, float]:
    """CPU seconds (`time.process_time`) to build every rule set's expected-value table from
    nothing, one after the other in this process, in all and by close rule."""
    clear_caches()
    by_close: dict[str, float] = {}
    for rules in every_rule_set():
        start = time.process_time()
        solve(rules, Objective.SUM)
        by_close[rules.close.value] = by_close.get(rules.close.value, 0.0) + (
            time.process_time() - start
        )
    return {"all": sum(by_close.values()), **by_close}


def table_build_times(rules: Rules) -> dict[str, float]:
    """Cold times: the shared roll outcomes, then each objective's table on top of them."""
    clear_caches()
    times = {"roll_outcomes": seconds(lambda: roll_outcomes(rules, long_game=False))}
    for objective in Objective:
        times[objective.value] = seconds(lambda: solve(rules, objective))  # noqa: B023
    times["first_table_total"] = times["roll_outcomes"] + times[Objective.SUM.value]
    return times


def per_call(states: list[tuple[int, tuple[int, ...]]], call: Callable[..., object]) -> float:
    """Mean seconds per call over the states."""
    start = time.perf_counter()
    for available, dice in states:
        call(available, dice)
    return (time.perf_counter() - start) / len(states)


def lookup_times(rules: Rules) -> dict[str, float]:
    table = solve(rules, Objective.SUM)
    states = random_states(rules, LOOKUPS, seed=1)
    full_board = [(rules.full_mask, dice) for _, dice in states if len(dice) == rules.dice]
    return {
        "best_move": per_call(states, table.best_move),
        "best_move_full_board": per_call(full_board, table.best_move),
        "options": per_call(states, rules.allows),
        "options_full_board": per_call(full_board, rules.allows),
    }


def run() -> dict[str, object]:
    every_table = every_table_cpu()
    builds = {name: table_build_times(rules) for name, rules in RULE_SETS.items()}
    lookups = {name: lookup_times(rules) for name, rules in RULE_SETS.items()}
    clear_caches()
    long_game = {
        name: seconds(lambda: solve_long(RULE_SETS[name]))  # noqa: B023
        for name in LONG_GAME_SETS
    }
    exact = {name: seconds(lambda: exact_p_shut(PRESETS[name])) for name in ("classic", "hard")}  # noqa: B023
    return {
        "every_table_cpu_s": every_table,
        "table_build_s": builds,
        "lookup_s": lookups,
        "long_game_s": long_game,
        "exact_s": exact,
    }


def print_report(results: dict[str, object]) -> None:
    builds = results["table_build_s"]
    lookups = results["lookup_s"]
    assert isinstance(builds, dict) and isinstance(lookups, dict)
    print(f"{'rule set':18} {'outcomes':>9} {'sum':>8} {'count':>8} {'shut':>8}   (ms, cold)")
    for name, times in builds.items():
        row = [times[key] * 1e3 for key in ("roll_outcomes", "sum", "count", "shut")]
        print(f"{name:18} " + " ".join(f"{value:8.1f}" for value in row).rjust(36))
    print(
        f"\n{'rule set':18} {'best_move':>10} {'(full)':>10} {'options':>10} {'(full)':>10}  (µs)"
    )
    for name, times in lookups.items():
        keys = ("best_move", "best_move_full_board", "options", "options_full_board")
        print(f"{name:18} " + " ".join(f"{times[key] * 1e6:10.1f}" for key in keys))
    for section in ("every_table_cpu_s", "long_game_s", "exact_s"):
        timings = results[section]
        assert isinstance(timings, dict)
        print(f"\n{section}: " + ", ".join(f"{k} {v * 1e3:.0f} ms" for k, v in timings.items()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", type=Path, help="also write the numbers as JSON to this path")
    args = parser.parse_args(argv)
    results = run()
    print_report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
