"""The private Hint: the optimal choice right now, from the exact solver tables (a lookup)."""

from __future__ import annotations

from core.game import flow
from core.game.ai.solver import Objective, solve
from core.game.ai.solver_long import solve_long
from core.game.match import FormatKind
from core.game.state import GameState, Phase
from core.text.i18n import decimal, percent, t
from core.text.render import render_move


def hint_text(state: GameState, lang: str) -> str:
    """`Best: 8+1 — expected score 7.3 · chance to shut from here 12.4 %`."""
    if state.config.format.kind is FormatKind.LONG:
        return _long_hint(state, lang)
    rules, available = state.config.rules, flow.available(state)
    goal = solve(rules, flow.objective(state))
    shut = solve(rules, Objective.SHUT)
    if state.phase is Phase.ROLL:
        count = goal.best_dice(available)
        advice = roll_label(state, count, lang)
        return _format(
            lang, advice, goal.dice_value(available, count), shut.value(available), goal.objective
        )
    move = goal.best_move(available, state.dice)
    assert move is not None
    after = available & ~move
    value = next(v for m, v in goal.move_values(available, state.dice) if m == move)
    return _format(
        lang,
        render_move(move),
        value,
        shut.value(after) if not state.ends_turn else float(after == 0),
        goal.objective,
    )


def roll_label(state: GameState, count: int, lang: str) -> str:
    """The roll button the hint names, as the game message labels it: `Roll` when it is the
    only one, `Roll 1 die` / `Roll 2 dice` when the player chooses."""
    if len(state.config.rules.dice_choices(flow.available(state))) > 1:
        return t(lang, f"ui.roll_{count}")
    return t(lang, "ui.roll")


def _format(lang: str, advice: str, value: float, p_shut: float, objective: Objective) -> str:
    if objective is Objective.SHUT:
        return t(lang, "hint.shut", advice=advice, chance=_percent(lang, p_shut))
    key = "hint.count" if objective is Objective.COUNT else "hint.sum"
    return t(lang, key, advice=advice, expected=decimal(lang, value), chance=_percent(lang, p_shut))


def _long_hint(state: GameState, lang: str) -> str:
    table = solve_long(state.config.rules)
    if state.phase is Phase.ROLL:
        count = table.best_dice(state.board, state.turn)
        advice = roll_label(state, count, lang)
        chance = table.win_chance(state.board, state.turn)
    else:
        move, chance = table.move_values(state.board, state.turn, state.dice)[0]
        advice = render_move(move)
    return t(lang, "hint.long", advice=advice, chance=_percent(lang, chance))


def _percent(lang: str, chance: float) -> str:
    return percent(lang, chance)
