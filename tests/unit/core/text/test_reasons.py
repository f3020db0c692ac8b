"""Why a roll ends the turn, said in the terms of the close rule in force."""

from __future__ import annotations

from core.game.moves import mask_of
from core.game.rules import CloseRule, Rules, preset
from core.text.reasons import no_move_reason


def _why(rules: Rules, open_tiles: list[int], dice: tuple[int, ...], lang: str = "en") -> str:
    available = mask_of(open_tiles)
    assert not rules.allows(available, dice).moves, "the roll must fit nothing"
    return no_move_reason(rules, available, dice, lang)


def test_any_rule_says_no_tiles_add_up() -> None:
    """Classic: the open tiles cannot make the sum."""
    assert _why(preset("classic"), [9, 1], (2, 3)) == "no open tiles add up to 5"


def test_sailors_double_twelve_names_the_missing_tile_and_the_double() -> None:
    """Sailors, 6-6 with 9 and 3 open: 12 is no tile and a double cannot close 6 twice."""
    assert _why(preset("sailors"), [9, 3], (6, 6)) == (
        "there is no tile 12, and a double can’t close 6 twice"
    )


def test_sailors_after_the_high_tiles_two_dice_close_their_own_tiles() -> None:
    """Sailors, 4-4 after 7-8-9 with 6 and 2 open: the dice's own tiles, not the sum."""
    assert _why(preset("sailors"), [6, 2], (4, 4)) == (
        "with 7-8-9 shut, two dice close their own tiles, and a double can’t close 4 twice"
    )


def test_sailors_sum_tile_shut_and_a_die_tile_shut() -> None:
    """Sailors, 2-3 with 5 and 3 shut: names both shut tiles the roll could have used."""
    assert _why(preset("sailors"), [9, 8, 2], (2, 3)) == "tiles 3 and 5 are shut"


def test_kids_rule_names_the_sum_and_both_dice() -> None:
    """Kids: the sum's tile and each die's tile are all shut."""
    assert _why(preset("kids"), [9, 1], (2, 3)) == "tiles 2, 3, and 5 are shut"


def test_separate_rule_names_the_dice_only() -> None:
    """Separate dice never use the sum: the dice's tiles are shut."""
    rules = Rules(close=CloseRule.SEPARATE)
    assert _why(rules, [9, 1], (4, 4)) == "tile 4 is shut"


def test_last_die_double_with_its_tile_shut_says_the_tile() -> None:
    """With last-die, a double whose tile is shut: the tile, not the double, is the reason."""
    rules = Rules(close=CloseRule.SUM_OR_DICE, last_die=True)
    assert _why(rules, [9, 8, 7, 3], (6, 6)) == "there is no tile 12, and tile 6 is shut"


def test_one_die_names_the_die_s_tile() -> None:
    """One die under the sailors' rule: its own tile is shut."""
    assert _why(preset("sailors"), [2, 1], (5,)) == "tile 5 is shut"


def test_opener_of_the_long_game_is_told_about_closed_tiles() -> None:
    """The opener opens closed tiles, so the reason speaks of closed ones."""
    text = no_move_reason(preset("classic"), mask_of([1]), (3, 3), "en", opening=True)
    assert text == "no closed tiles add up to 6"


def test_danish_and_norwegian_reasons() -> None:
    """The reason reads in the player's language, with the language's list words."""
    assert _why(preset("kids"), [9, 1], (2, 3), "da") == "klapperne 2, 3 og 5 er lukket"
    assert _why(preset("sailors"), [9, 3], (6, 6), "nb") == (
        "det finnes ingen brikke 12, og et par kan ikke legge ned 6 to ganger"
    )
