"""The read-only texts: `odds` in chat comes from the same computation as `shutbox odds`."""

from __future__ import annotations

import pytest

from core.game.ai.odds import compute_odds, first_rolls
from core.game.ai.solver import Objective, solve
from core.game.moves import move_label
from core.game.rules import PRESETS
from core.service.info import odds_text
from core.text.i18n import t


def _chat_moves(text: str) -> dict[str, str]:
    """The `roll: move` rows under the first-moves heading of the chat's odds text."""
    rows = text.split("\n")[5:]
    return dict(row.split(": ", 1) for row in rows)


@pytest.mark.parametrize("name", list(PRESETS))
def test_chat_odds_list_the_solvers_best_first_moves(name: str) -> None:
    """Every row of `odds <preset>` is the solver's best move for the preset's own scoring."""
    rules = PRESETS[name]
    table = solve(rules, Objective(rules.scoring.value))
    shown = _chat_moves(odds_text(name, "en"))
    assert shown.keys() == first_rolls(rules).keys()
    for roll, dice in first_rolls(rules).items():
        move = table.best_move(rules.full_mask, dice)
        expected = "closes nothing, the turn ends" if move is None else move_label(move)
        assert shown[roll] == expected, (name, roll)


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("objective", list(Objective))
def test_cli_odds_agree_with_the_solver_for_each_objective(name: str, objective: Objective) -> None:
    """`shutbox odds --objective` lists the solver's best move for every first roll."""
    rules = PRESETS[name]
    table = solve(rules, objective)
    moves = compute_odds(rules, objective).best_first_moves
    for roll, dice in first_rolls(rules).items():
        best = table.best_move(rules.full_mask, dice)
        assert moves[roll] == (None if best is None else move_label(best))


def test_chat_and_cli_agree_on_the_default_objective() -> None:
    """Chat and CLI share one default: the preset's scoring (missionary counts tiles)."""
    for name, rules in PRESETS.items():
        assert _chat_moves(odds_text(name, "en")) == {
            roll: move or "closes nothing, the turn ends"
            for roll, move in compute_odds(rules).best_first_moves.items()
        }


def test_missionary_plays_for_fewest_tiles_and_kids_list_each_pair_of_dice() -> None:
    """The cases seen: 11 is 8+3 in missionary; kids and sailors list all 21 pairs."""
    assert _chat_moves(odds_text("missionary", "en"))["11"] == "8+3"
    assert len(_chat_moves(odds_text("kids", "en"))) == 21
    assert len(_chat_moves(odds_text("sailors", "en"))) == 21


@pytest.mark.parametrize("lang", ["en", "da", "nb"])
def test_odds_heading_names_the_preset_and_the_aim(lang: str) -> None:
    """The heading shows the preset's title, not its key alone, and what the moves aim for."""
    text = odds_text("missionary", lang)
    assert t(lang, "rules.preset.missionary.title") in text.split("\n")[0]
    assert t(lang, "odds.first_moves.count") in text
