"""The read-only texts: `/shutbox rules`, `/shutbox odds`, `/shutbox help`."""

from __future__ import annotations

from core.game.ai.odds import compute_odds
from core.game.rules import preset
from core.service.economy import BOARDS
from core.text.i18n import decimal, percent, t
from core.text.render import preset_heading, rules_text


def rules_reply(name: str | None, lang: str) -> str:
    return rules_text(name or "classic", lang)


def odds_text(name: str | None, lang: str) -> str:
    """The optimal-play odds of a preset and its best first moves, from the same computation as
    the command line's `shutbox odds` (aiming for the preset's own scoring)."""
    key = (name or "classic").strip().lower()
    odds = compute_odds(preset(key))
    lines = [
        t(lang, "odds.title", preset=preset_heading(key, lang)),
        t(lang, "odds.shut", chance=percent(lang, odds.p_shut, 2)),
        t(lang, "odds.sum", expected=decimal(lang, odds.expected_score, 2)),
        t(lang, "odds.count", expected=decimal(lang, odds.expected_count, 2)),
        t(lang, f"odds.first_moves.{odds.objective.value}"),
    ]
    lines += [
        t(lang, "odds.no_move", roll=roll)
        if move is None
        else t(lang, "odds.move", roll=roll, move=move)
        for roll, move in odds.best_first_moves.items()
    ]
    return "\n".join(lines)


def help_text(lang: str) -> str:
    """The commands; the presets, formats and stakes come from the option table (see i18n)."""
    return t(lang, "help.text", boards="|".join(BOARDS))
