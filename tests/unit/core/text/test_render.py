"""Plain-text rendering: boards in both styles, dice, moves and rule descriptions."""

from __future__ import annotations

import pytest

from core.game.errors import InvalidRules
from core.game.moves import mask_of
from core.game.rules import PRESETS, CloseRule, Rules, Scoring
from core.text.i18n import LANGS, t
from core.text.render import (
    CLOSED_EMOJI,
    CLOSED_TEXT,
    KEYCAPS,
    Style,
    describe_rules,
    explain_rules,
    render_board,
    render_dice,
    render_move,
    rules_text,
)

TILE_COUNTS = (9, 10, 12)


def _cells(board: str) -> list[str]:
    """The cells of a text board, padding included."""
    assert board.startswith("|")
    assert board.endswith("|")
    return board[1:-1].split("|")


@pytest.mark.parametrize("tiles", TILE_COUNTS)
def test_emoji_board_shows_one_distinct_symbol_per_open_tile(tiles: int) -> None:
    """Every tile has its own symbol, so 11 and 12 never read as 1 and 1 or 1 and 2."""
    rules = Rules(tiles=tiles)
    symbols = render_board(rules, rules.full_mask, "emoji").split(" ")
    assert len(symbols) == tiles
    assert len(set(symbols)) == tiles
    if tiles <= len(KEYCAPS):
        assert symbols == list(KEYCAPS[:tiles])
    assert CLOSED_EMOJI not in symbols


def test_emoji_board_tiles_above_ten() -> None:
    """A 12-tile box is one style: negative circled numbers, one glyph each, never keycap pairs;
    a 10-tile box keeps the keycaps with the keycap ten."""
    rules = Rules(tiles=12)
    symbols = render_board(rules, rules.full_mask, "emoji").split(" ")
    assert symbols == ["❶", "❷", "❸", "❹", "❺", "❻", "❼", "❽", "❾", "❿", "⓫", "⓬"]
    ten = Rules(tiles=10)
    assert render_board(ten, ten.full_mask, "emoji").split(" ")[9] == "🔟"
    assert "1️⃣1️⃣" not in render_board(rules, rules.full_mask, "emoji")


@pytest.mark.parametrize("tiles", TILE_COUNTS)
def test_emoji_board_shows_closed_tiles_as_dark_squares(tiles: int) -> None:
    """Closed tiles keep their place and show the dark square."""
    rules = Rules(tiles=tiles)
    closed = mask_of([1, 7, tiles])
    symbols = render_board(rules, rules.full_mask & ~closed, "emoji").split(" ")
    assert len(symbols) == tiles
    for tile in range(1, tiles + 1):
        assert (symbols[tile - 1] == CLOSED_EMOJI) == (tile in (1, 7, tiles)), tile


def test_text_board_classic() -> None:
    """The nine-tile text board matches the sources' `| 1 | 2 | ... |` drawing."""
    rules = Rules()
    assert render_board(rules, rules.full_mask, "text") == "| 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 |"
    assert render_board(rules, rules.full_mask & ~mask_of([3, 9]), "text") == (
        f"| 1 | 2 | {CLOSED_TEXT} | 4 | 5 | 6 | 7 | 8 | {CLOSED_TEXT} |"
    )


@pytest.mark.parametrize("tiles", TILE_COUNTS)
def test_text_board_cells_have_one_width(tiles: int) -> None:
    """Every cell is as wide as the widest, whether open or closed."""
    rules = Rules(tiles=tiles)
    board = render_board(rules, rules.full_mask & ~mask_of([2, tiles]), "text")
    cells = _cells(board)
    assert len(cells) == tiles
    assert len({len(cell) for cell in cells}) == 1
    assert [cell.strip() for cell in cells].count(CLOSED_TEXT) == 2


@pytest.mark.parametrize("tiles", [10, 12])
def test_text_board_shows_two_digit_tiles(tiles: int) -> None:
    """Tiles 10, 11 and 12 appear as their own numbers."""
    rules = Rules(tiles=tiles)
    labels = [cell.strip() for cell in _cells(render_board(rules, rules.full_mask, "text"))]
    assert labels == [str(tile) for tile in range(1, tiles + 1)]


@pytest.mark.parametrize("style", ["emoji", "text"])
def test_empty_and_shut_boards(style: Style) -> None:
    """A shut box shows every tile closed; bits above the box are ignored."""
    rules = Rules()
    assert not any(char.isdigit() for char in render_board(rules, 0, style))
    beyond_the_box = rules.full_mask | 1 << 20
    assert render_board(rules, beyond_the_box, style) == render_board(rules, rules.full_mask, style)


@pytest.mark.parametrize(
    ("dice", "emoji", "text"),
    [
        ((4, 5), "⚃ ⚄ = 9", "4 + 5 = 9"),
        ((4,), "⚃", "4"),
        ((1, 6), "⚀ ⚅ = 7", "1 + 6 = 7"),
        ((6, 6, 6), "⚅ ⚅ ⚅ = 18", "6 + 6 + 6 = 18"),
    ],
)
def test_render_dice(dice: tuple[int, ...], emoji: str, text: str) -> None:
    """Dice faces or numbers, with the total when more than one die."""
    assert render_dice(dice, "emoji") == emoji
    assert render_dice(dice, "text") == text


@pytest.mark.parametrize("pips", [0, 7])
def test_render_dice_refuses_impossible_faces(pips: int) -> None:
    """A die outside 1..6 is a bug, not something to draw."""
    with pytest.raises(ValueError):
        render_dice((pips, 1), "emoji")


def test_render_move() -> None:
    """Moves read highest tile first, like their buttons."""
    assert render_move(mask_of([1, 8])) == "8+1"
    assert render_move(mask_of([9])) == "9"
    assert render_move(mask_of([2, 3, 4])) == "4+3+2"


@pytest.mark.parametrize("lang", LANGS)
def test_describe_rules_differs_per_preset(lang: str) -> None:
    """Each preset's one-liner is non-empty, fully formatted and unlike the others."""
    lines = {name: describe_rules(rules, lang) for name, rules in PRESETS.items()}
    for name, line in lines.items():
        assert line.strip(), name
        assert "{" not in line, name
    assert len(set(lines.values())) == len(PRESETS)


def test_describe_rules_classic_in_english() -> None:
    """The classic one-liner reads like the spec's example."""
    assert describe_rules(PRESETS["classic"], "en") == (
        "9 tiles · any combination · one die after 7-8-9 · golf scoring"
    )


def test_describe_rules_is_translated() -> None:
    """Danish and Norwegian one-liners use their own words."""
    classic = PRESETS["classic"]
    assert "klapper" in describe_rules(classic, "da")
    assert "brikker" in describe_rules(classic, "nb")


def test_describe_rules_mentions_every_option() -> None:
    """Three dice, last die and the high tiles of a bigger box all show up."""
    three = describe_rules(Rules(tiles=12, dice=3), "en")
    assert "3 dice" in three
    assert "7–12" in three
    last_die = Rules(close=CloseRule.SUM_OR_DICE, last_die=True)
    assert t("en", "rules.last_die.short") in describe_rules(last_die, "en")
    assert t("en", "rules.hard.short") in describe_rules(Rules(one_die=False), "en")
    count = describe_rules(Rules(scoring=Scoring.COUNT), "en")
    assert t("en", "rules.scoring.count.short") in count


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_text_for_every_preset(name: str, lang: str) -> None:
    """The long text names the preset and explains turn, closing, dice and scoring."""
    text = rules_text(name, lang)
    assert t(lang, f"rules.preset.{name}.title") in text
    assert describe_rules(PRESETS[name], lang) in text
    assert t(lang, "rules.text.turn.title") in text
    assert t(lang, f"rules.close.{PRESETS[name].close.value}.title") in text
    assert t(lang, f"rules.scoring.{PRESETS[name].scoring.value}.title") in text
    assert "{" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_rules_texts_differ_per_preset(lang: str) -> None:
    """No two presets share a rules text."""
    assert len({rules_text(name, lang) for name in PRESETS}) == len(PRESETS)


def test_rules_text_is_forgiving_about_the_name() -> None:
    """Case and spaces do not matter, and no name means classic."""
    assert rules_text("  Sailors ", "en") == rules_text("sailors", "en")
    assert rules_text("", "en") == rules_text("classic", "en")


def test_rules_text_unknown_preset_is_refused() -> None:
    """An unknown preset raises the translated rules error, listing the presets."""
    with pytest.raises(InvalidRules) as caught:
        rules_text("foo", "en")
    assert caught.value.key == "error.rules.preset"


def test_explain_rules_follows_the_options() -> None:
    """Hard mode, three dice and last die each get their own line."""
    hard = explain_rules(Rules(one_die=False), "en")
    assert t("en", "rules.hard.title") in hard
    assert t("en", "rules.one_die.title") not in hard
    three = explain_rules(Rules(tiles=12, dice=3), "en")
    assert t("en", "rules.three_dice.title") in three
    assert "all three dice" in three
    last_die = explain_rules(Rules(close=CloseRule.SUM_OR_DICE, last_die=True), "da")
    assert t("da", "rules.last_die.title") in last_die


def test_rules_that_cannot_shut_are_described_as_they_play() -> None:
    """Under `separate` tiles 7 and up never close: no one-die rule, no shutting the box; the
    text says the lowest score wins instead."""
    separate = Rules(close=CloseRule.SEPARATE)
    short = describe_rules(separate, "en")
    full = explain_rules(separate, "en")
    assert "one die" not in short  # neither "one die after 7-8-9" nor hard mode's "never"
    assert "One-die rule" not in full and "Shut the box:" not in full
    assert "No roll can close a tile above 6 under these rules" in full
    assert "one die after 7-8-9" in describe_rules(Rules(), "en")
    assert "Shut the box:" in explain_rules(Rules(), "en")


def test_the_rules_say_what_counts_in_every_language() -> None:
    """`rules` ends with what reaches the boards: humans only, practice, solo, void."""
    english = rules_text("classic", "en")
    assert english.endswith(
        "A match in which nobody made a move of their own (every turn timed out) is void: every "
        "stake goes back and nothing is counted or rated."
    )
    assert "**Hvad tæller**" in rules_text("classic", "da")
    assert "**Hva som teller**" in rules_text("kids", "nb")
