"""Stats name a rule set the way a player would, in the player's language."""

from __future__ import annotations

from core.game.rules import CloseRule, Rules, Scoring, preset
from core.service.features.economy import rules_name
from core.text.i18n import t


def test_a_preset_is_named_by_its_title() -> None:
    """The sailors' rule set reads "Sailors’ rules", not `t9.d2.sum-or-dice.1d.sum`."""
    assert rules_name(preset("sailors").to_str(), "en") == "Sailors’ rules"
    assert rules_name(preset("kids").to_str(), "da") == t("da", "rules.preset.kids.title")


def test_other_rule_sets_are_described_in_words() -> None:
    """A mix of options is described: tiles, close rule, dice, scoring; the one-die rule only
    where a roll can ever reach it (no tile above 6 ever closes under `separate`)."""
    rules = Rules(close=CloseRule.SEPARATE, scoring=Scoring.SUM)
    assert rules_name(rules.to_str(), "en") == "9 tiles · each die, never the sum · golf scoring"


def test_an_unreadable_rule_set_keeps_its_stored_form() -> None:
    """Stats written by a future version still show something rather than fail."""
    assert rules_name("t99.weird", "en") == "t99.weird"
