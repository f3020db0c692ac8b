"""Long games played through the real engine by two optimal players, next to the long-game
solver's exact chance for the closer (the first seat) to win.

Both seats play `solve_long`'s best dice count and move. Every unusable roll that rolls again
(`Rules.rolls_again`) is the engine's to grant: if the engine and the solver disagreed about it,
the measured win rate would drift away from the solver's chance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.game.actions import Action, Begin, Choose, Join, Roll
from core.game.ai.solver_long import CLOSER, LongTable, solve_long
from core.game.dice import DiceSource, SeededDice
from core.game.engine import apply, new_game
from core.game.match import FormatKind, MatchConfig, MatchFormat
from core.game.rules import Rules
from core.game.state import GameState, Phase

PLAYERS = ("closer", "opener")
# A turn that never ends would be an engine bug; a safety net rather than a hang.
MAX_ACTIONS = 100_000


@dataclass(frozen=True, slots=True)
class LongTally:
    """What a batch of long games measured; batches (one per worker) add up."""

    games: int = 0
    closer_wins: int = 0
    extra_rolls: int = 0
    actions: int = 0

    def __add__(self, other: LongTally) -> LongTally:
        return LongTally(
            self.games + other.games,
            self.closer_wins + other.closer_wins,
            self.extra_rolls + other.extra_rolls,
            self.actions + other.actions,
        )


@dataclass(frozen=True, slots=True)
class LongResult:
    """Measured long games and the solver's chance for the closer."""

    rules: Rules
    tally: LongTally
    expected_win_rate: float

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def win_rate(self) -> float:
        return self.tally.closer_wins / self.tally.games if self.tally.games else 0.0

    @property
    def z_score(self) -> float | None:
        """The closer's measured win rate against the solver, in binomial standard errors."""
        p = self.expected_win_rate
        if not self.games or p * (1.0 - p) <= 1e-15:
            return None
        return (self.win_rate - p) / math.sqrt(p * (1.0 - p) / self.games)


def simulate_long(rules: Rules, games: int, seed: int = 0) -> LongResult:
    """Play `games` long games (deterministic for a seed) and compare with the solver."""
    tally = play_long_games(rules, games, seed)
    return LongResult(rules, tally, solve_long(rules).win_chance(rules.full_mask, CLOSER))


def play_long_games(rules: Rules, games: int, seed: int) -> LongTally:
    """Play the games only, dice from `SeededDice(seed)`."""
    table = solve_long(rules)
    dice = SeededDice(seed)
    start = started_long_game(rules)
    wins = extra = actions = 0
    for _ in range(games):
        final, used, rerolls = play_long_game(start, table, dice)
        wins += final.winners == (CLOSER,)
        extra += rerolls
        actions += used
    return LongTally(games, wins, extra, actions)


def started_long_game(rules: Rules) -> GameState:
    """A long game right after Begin, the closer to roll."""
    config = MatchConfig(rules=rules, format=MatchFormat(FormatKind.LONG))
    lobby = new_game(config, PLAYERS[0], "Closer")
    joined, _ = apply(lobby, Join(PLAYERS[1], name="Opener"), SeededDice(0))
    state, _ = apply(joined, Begin(PLAYERS[0]), SeededDice(0))
    return state


def play_long_game(
    state: GameState, table: LongTable, dice: DiceSource
) -> tuple[GameState, int, int]:
    """Both players' optimal actions until the game is over: the final state, the actions used
    and how many rolls the engine let roll again."""
    actions = rerolls = 0
    while state.phase is not Phase.OVER:
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"a long game of {table.rules.to_str()} did not end")
        before = state
        state, _ = apply(state, _next_action(state, table), dice)
        actions += 1
        rerolls += _rolled_again(before, state)
    return state, actions, rerolls


def _rolled_again(before: GameState, after: GameState) -> bool:
    """A roll that left the same player to roll again on the same board."""
    return (
        before.phase is Phase.ROLL
        and after.phase is Phase.ROLL
        and after.turn == before.turn
        and after.board == before.board
    )


def _next_action(state: GameState, table: LongTable) -> Action:
    user = PLAYERS[state.turn]
    if state.phase is Phase.ROLL:
        return Roll(user, count=table.best_dice(state.board, state.turn))
    move = table.best_move(state.board, state.turn, state.dice)
    if move is None:  # the engine only asks for a move when one is legal
        raise RuntimeError(f"no move for {state.dice} on {state.board:#b}")
    return Choose(user, tiles=move)
