"""The read-only texts: `odds` in chat comes from the same computation as `shutbox odds`."""

from __future__ import annotations

import pytest

from core.game.ai.odds import compute_odds, first_rolls
from core.game.ai.solver import Objective, solve
from core.game.errors import InvalidRules
from core.game.moves import move_label
from core.game.rules import PRESETS
from core.service.features.info import odds_text, rules_reply
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


@pytest.mark.parametrize("lang", ["en", "da", "nb"])
@pytest.mark.parametrize(
    ("topic", "group"),
    [
        ("long", "format.long"), ("to-45", "format.to-45"), ("elimination", "format.elimination"),
        ("first-shut", "format.first-shut"), ("rounds:5", "format.rounds"),
        ("rounds", "format.rounds"),
        ("canoga", "stakes.canoga"), ("canoga:2", "stakes.canoga"), ("pot", "stakes.pot"),
        ("pot:5", "stakes.pot"), ("none", "stakes.none"),
    ],
)  # fmt: skip
def test_rules_explain_formats_and_stakes(lang: str, topic: str, group: str) -> None:
    """`rules long`, `rules canoga` ... answer with the title and the explanation."""
    text = rules_reply(topic, lang)
    assert t(lang, f"{group}.title") in text and t(lang, f"{group}.description") in text


def test_rules_of_something_else_list_what_can_be_asked() -> None:
    with pytest.raises(InvalidRules) as refused:
        rules_reply("fish", "en")
    text = t("en", refused.value.key, **refused.value.params)
    assert "classic" in text and "to-45" in text and "canoga" in text


def test_the_rules_tell_the_penalty_of_a_shut_box() -> None:
    """Players who don't get to play score the maximum: 45 in classic, 9 tiles in missionary."""
    assert "don’t play it and score 45" in rules_reply("classic", "en")
    assert "don’t play it and score 9" in rules_reply("missionary", "en")
    assert "score 78" in rules_reply("twelve", "en")


def test_twelve_rolls_two_dice_unless_told() -> None:
    text = rules_reply("twelve", "en")
    assert "Three dice can help" not in text and "dice=3" in text
    assert PRESETS["twelve"].dice == 2


def test_the_example_moves_do_not_read_as_the_only_ones() -> None:
    assert "or any other open tiles that add up to 9" in rules_reply("classic", "en")
