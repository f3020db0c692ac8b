"""Button ids: forged or broken ids count as outdated buttons, never as a crash."""

from __future__ import annotations

import pytest

from core.game.errors import StaleAction
from core.service.model.buttons import BUTTON_ID, VERBS, ButtonId, parse_button


def test_a_button_id_round_trips() -> None:
    """What the manager writes, it reads back."""
    button = ButtonId("choose", "g1a2", 17, 384)
    assert parse_button(str(button)) == button


@pytest.mark.parametrize(
    "text",
    [
        "stb:roll:g1:²:0",  # isdigit() says yes, int() says no
        "stb:roll:g1:٣:0",  # an Arabic-Indic digit: int() would read it as 3
        "stb:choose:g1:1:" + "9" * 5000,  # more digits than int() reads
        "stb:choose:g1:1:99999999999999999999",
        "stb:roll:ｇ１:1:0",  # full-width letters are alphanumeric, but not ours
        "stb:roll:g1:-1:0",
        "stb:roll:g1:1",
        "stb:fly:g1:1:0",
    ],
)
def test_forged_ids_are_outdated_buttons(text: str) -> None:
    """Unicode digits, huge numbers and unknown verbs all say "no longer possible"."""
    with pytest.raises(StaleAction):
        parse_button(text)


@pytest.mark.parametrize("verb", VERBS)
def test_the_one_grammar_reads_every_id_the_manager_writes(verb: str) -> None:
    """`BUTTON_ID` (which Discord registers as its template) takes exactly what `parse_button`
    takes: every verb's id, and none of the forged ones above."""
    assert BUTTON_ID.fullmatch(str(ButtonId(verb, "G1a2", 999_999_999, 4095)))
    assert not BUTTON_ID.fullmatch(f"stb:{verb}:g1:1:0\n")
