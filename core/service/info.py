"""The read-only texts: `/shutbox rules`, `/shutbox odds`, `/shutbox help`."""

from __future__ import annotations

from core.game.ai.solver import Objective, solve
from core.game.moves import move_label
from core.game.rules import Rules, preset
from core.service.economy import BOARD_NAMES
from core.text.i18n import decimal, percent, t
from core.text.render import rules_text

SHUT = Objective.SHUT

# One roll for each sum from 2 to 12.
ODDS_ROLLS = (
    (1, 1),
    (1, 2),
    (2, 2),
    (2, 3),
    (3, 3),
    (3, 4),
    (4, 4),
    (4, 5),
    (5, 5),
    (5, 6),
    (6, 6),
)


def rules_reply(name: str | None, lang: str) -> str:
    return rules_text(name or "classic", lang)


def odds_text(name: str | None, lang: str) -> str:
    """The optimal-play odds of a rule set, and the best first move for each roll."""
    rules = preset(name or "classic")
    full = rules.full_mask
    lines = [
        t(lang, "odds.title", preset=name or "classic"),
        t(lang, "odds.shut", chance=percent(lang, solve(rules, SHUT).value(full), 2)),
        t(lang, "odds.sum", expected=decimal(lang, solve(rules, Objective.SUM).value(full), 2)),
        t(lang, "odds.count", expected=decimal(lang, solve(rules, Objective.COUNT).value(full), 2)),
        t(lang, "odds.first_moves"),
    ]
    lines += [_first_move(rules, dice, lang) for dice in _rolls(rules)]
    return "\n".join(lines)


def _rolls(rules: Rules) -> list[tuple[int, ...]]:
    """One roll for each sum from 2 to 12 (three dice: a few samples)."""
    return list(ODDS_ROLLS) if rules.dice == 2 else [(1, 1, 1), (2, 3, 4), (4, 5, 6), (6, 6, 6)]


def _first_move(rules: Rules, dice: tuple[int, ...], lang: str) -> str:
    table = solve(rules, Objective.SUM)
    move = table.best_move(rules.full_mask, dice)
    roll = "-".join(map(str, dice))
    if move is None:
        return t(lang, "odds.no_move", roll=roll)
    return t(lang, "odds.move", roll=roll, move=move_label(move))


def help_text(lang: str) -> str:
    """The commands; the presets, formats and stakes come from the option table (see i18n)."""
    return t(lang, "help.text", boards="|".join(BOARD_NAMES))
