"""`shutbox simulate`: play many solo turns (or two-player long games, `--format long`) through
the engine and compare with the solver."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from dataclasses import dataclass

from bot.commands import Subparsers
from bot.commands.rules_options import add_rules_options, rules_from_args
from core.game.ai.policies import Policy
from core.game.ai.prediction import predict
from core.game.ai.simulation import SimulationResult, Tally, play_games, worker_batches
from core.game.ai.simulation_long import LongResult, LongTally, play_long_games
from core.game.ai.solver import Objective
from core.game.ai.solver_long import CLOSER, solve_long
from core.game.rules import Rules


@dataclass(frozen=True, slots=True)
class Run:
    """A finished simulation with how it was run."""

    result: SimulationResult
    seed: int
    workers: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.result.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.result.tally.actions / self.seconds if self.seconds else 0.0


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def register(subparsers: Subparsers) -> None:
    """Add `simulate` to the command line."""
    parser = subparsers.add_parser(
        "simulate", help="simulate solo turns and compare with the solver", description=__doc__
    )
    parser.add_argument("--games", type=positive_int, default=10_000, help="turns to play")
    parser.add_argument(
        "--format",
        choices=("solo", "long"),
        default="solo",
        help="solo turns (default), or long games with optimal play on both sides",
    )
    parser.add_argument(
        "--policy", choices=[policy.value for policy in Policy], default=Policy.OPTIMAL.value
    )
    parser.add_argument("--seed", type=int, default=1, help="the same seed plays the same games")
    parser.add_argument(
        "--objective",
        choices=[objective.value for objective in Objective],
        default=Objective.SHUT.value,
        help="what the optimal policy aims for (default: shut)",
    )
    add_rules_options(parser)
    parser.add_argument("--workers", type=positive_int, default=1, help="processes to use")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.format == "long":
        return run_long(args, rules)
    policy, objective = Policy(args.policy), Objective(args.objective)
    outcome = simulate_run(rules, args.games, policy, args.seed, objective, args.workers)
    print(json.dumps(run_json(outcome), indent=2) if args.json else run_text(outcome))
    return 0


def simulate_run(
    rules: Rules, games: int, policy: Policy, seed: int, objective: Objective, workers: int
) -> Run:
    """Predict first (forked workers then share the solver tables), then time the games alone."""
    prediction = predict(rules, policy, objective)
    start = time.perf_counter()
    tally = play_batches(rules, policy, objective, worker_batches(games, seed, workers))
    seconds = time.perf_counter() - start
    result = SimulationResult(rules, policy, objective, tally, prediction)
    return Run(result, seed, workers, seconds)


def play_batches(
    rules: Rules, policy: Policy, objective: Objective, batches: list[tuple[int, int]]
) -> Tally:
    """Each batch of (games, seed) in its own process, or in this one when there is one batch."""
    jobs = [(rules, games, policy, seed, objective) for games, seed in batches]
    if len(jobs) == 1:
        return play_games(*jobs[0])
    with multiprocessing.get_context().Pool(len(jobs)) as pool:
        return sum(pool.starmap(play_games, jobs), Tally())


def run_json(outcome: Run) -> dict[str, object]:
    result = outcome.result
    return {
        "rules": result.rules.to_str(),
        "policy": result.policy.value,
        "objective": result.objective.value,
        "seed": outcome.seed,
        "workers": outcome.workers,
        "games": result.games,
        "shuts": result.shuts,
        "shut_rate": result.shut_rate,
        "mean_score": result.mean_score,
        "expected_shut_rate": result.expected_shut_rate,
        "z_score": result.z_score,
        "expected_mean_score": result.expected_mean_score,
        "mean_score_z_score": result.score_z_score,
        "seconds": outcome.seconds,
        "games_per_second": outcome.games_per_second,
        "actions_per_second": outcome.actions_per_second,
    }


def run_text(outcome: Run) -> str:
    result = outcome.result
    aim = f" aiming for {result.objective.value}" if result.policy is Policy.OPTIMAL else ""
    return "\n".join(
        [
            f"{result.games:,} solo turns of {result.rules.to_str()}, "
            f"{result.policy.value} policy{aim}, seed {outcome.seed}",
            f"  {'':14}{'measured':>10}{'predicted':>11}{'z':>8}",
            _row("shut the box", result.shut_rate, result.expected_shut_rate, result.z_score, "%"),
            _row("mean score", result.mean_score, result.expected_mean_score, result.score_z_score),
            f"  {outcome.games_per_second:,.0f} games/s, {outcome.actions_per_second:,.0f} "
            f"engine actions/s ({outcome.workers} worker{'s' * (outcome.workers > 1)}, "
            f"{outcome.seconds:.1f} s)",
        ]
    )


def _row(label: str, measured: float, predicted: float, z: float | None, unit: str = "") -> str:
    shown = [f"{v:10.3%}" if unit == "%" else f"{v:10.4f}" for v in (measured, predicted)]
    z_text = "—" if z is None else f"{z:+.2f}"
    return f"  {label:14}{shown[0]}{shown[1]:>11}{z_text:>8}"


@dataclass(frozen=True, slots=True)
class LongRun:
    """A finished long-game simulation with how it was run."""

    result: LongResult
    seed: int
    workers: int
    seconds: float


def run_long(args: argparse.Namespace, rules: Rules) -> int:
    if not rules.can_shut:
        parser_error = f"the long game needs rules that can shut the box, not {rules.to_str()}"
        print(f"shutbox simulate: error: {parser_error}", file=sys.stderr)
        return 2
    expected = solve_long(rules).win_chance(rules.full_mask, CLOSER)  # before forking workers
    start = time.perf_counter()
    jobs = [(rules, games, seed) for games, seed in worker_batches(args.games, args.seed,
                                                                   args.workers)]  # fmt: skip
    if len(jobs) == 1:
        tally = play_long_games(*jobs[0])
    else:
        with multiprocessing.get_context().Pool(len(jobs)) as pool:
            tally = sum(pool.starmap(play_long_games, jobs), LongTally())
    outcome = LongRun(LongResult(rules, tally, expected), args.seed, args.workers,
                      time.perf_counter() - start)  # fmt: skip
    print(json.dumps(long_json(outcome), indent=2) if args.json else long_text(outcome))
    return 0


def long_json(outcome: LongRun) -> dict[str, object]:
    result = outcome.result
    return {
        "rules": result.rules.to_str(),
        "format": "long",
        "seed": outcome.seed,
        "workers": outcome.workers,
        "games": result.games,
        "closer_wins": result.tally.closer_wins,
        "closer_win_rate": result.win_rate,
        "expected_closer_win_rate": result.expected_win_rate,
        "z_score": result.z_score,
        "extra_rolls": result.tally.extra_rolls,
        "seconds": outcome.seconds,
    }


def long_text(outcome: LongRun) -> str:
    result = outcome.result
    return "\n".join(
        [
            f"{result.games:,} long games of {result.rules.to_str()}, "
            f"optimal play on both sides, seed {outcome.seed}",
            f"  {'':14}{'measured':>10}{'predicted':>11}{'z':>8}",
            _row("closer wins", result.win_rate, result.expected_win_rate, result.z_score, "%"),
            f"  {result.tally.extra_rolls:,} unusable pairs rolled again, "
            f"{outcome.seconds:.1f} s ({outcome.workers} worker{'s' * (outcome.workers > 1)})",
        ]
    )
