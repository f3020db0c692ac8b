"""Plain-text rendering of the board, the dice, moves and rule descriptions (SPEC section 7).

Pure functions: they return text for any platform (Discord, Slack, the terminal playground); the
caller adds platform markup, e.g. the inline code span that makes the text board monospace.
"""

from __future__ import annotations

from typing import Literal

from core.game.moves import move_label
from core.game.rules import HIGH_TILE, Rules, flags_on, preset
from core.text.i18n import t

Style = Literal["emoji", "text"]

KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
# Keycaps stop at 10, and two side by side ("1️⃣1️⃣") read as two tiles. A bigger box uses the
# negative circled numbers for every tile (❶ … ❿ ⓫ ⓬): one glyph per tile, dark-filled like a
# keycap, in common fonts, and one style across the row.
NEGATIVE_CIRCLED_ONE = 0x2776  # ❶ … ❿
NEGATIVE_CIRCLED_ELEVEN = 0x24EB  # ⓫ … ⓴
CLOSED_EMOJI = "⬛"
CLOSED_TEXT = "·"
DIE_FACES = ("⚀", "⚁", "⚂", "⚃", "⚄", "⚅")
RULE_SEPARATOR = " · "


def render_board(rules: Rules, open_mask: int, style: Style) -> str:
    """The row of tiles 1..N: open tiles show their number, closed ones a closed mark."""
    if style == "emoji":
        tile_of = _emoji_tile if rules.tiles <= len(KEYCAPS) else _circled_tile
        return " ".join(
            tile_of(tile) if _is_open(open_mask, tile) else CLOSED_EMOJI
            for tile in range(1, rules.tiles + 1)
        )
    return _text_board(rules, open_mask)


def _is_open(open_mask: int, tile: int) -> bool:
    return bool(open_mask >> (tile - 1) & 1)


def _emoji_tile(tile: int) -> str:
    """A keycap for 1..10, a negative circled number for 11..20."""
    if 1 <= tile <= len(KEYCAPS):
        return KEYCAPS[tile - 1]
    if tile <= 20:
        return chr(NEGATIVE_CIRCLED_ELEVEN + tile - 11)
    raise ValueError(f"no emoji for tile {tile}")


def _circled_tile(tile: int) -> str:
    """A negative circled number, 1..20."""
    if 1 <= tile <= 10:
        return chr(NEGATIVE_CIRCLED_ONE + tile - 1)
    if tile <= 20:
        return chr(NEGATIVE_CIRCLED_ELEVEN + tile - 11)
    raise ValueError(f"no emoji for tile {tile}")


def _text_board(rules: Rules, open_mask: int) -> str:
    """`| 1 | 2 | · | 4 |`, every cell as wide as the widest number so columns stay aligned."""
    width = len(str(rules.tiles))
    cells = (
        str(tile) if _is_open(open_mask, tile) else CLOSED_TEXT
        for tile in range(1, rules.tiles + 1)
    )
    return "|" + "|".join(f" {cell:>{width}} " for cell in cells) + "|"


def render_dice(dice: tuple[int, ...], style: Style) -> str:
    """`⚃ ⚄ = 9` or `4 + 5 = 9`; a single die shows no total."""
    if style == "emoji":
        shown = " ".join(_die_face(pips) for pips in dice)
    else:
        shown = " + ".join(str(pips) for pips in dice)
    return f"{shown} = {sum(dice)}" if len(dice) > 1 else shown


def _die_face(pips: int) -> str:
    if not 1 <= pips <= len(DIE_FACES):
        raise ValueError(f"not a six-sided die: {pips}")
    return DIE_FACES[pips - 1]


def render_move(mask: int) -> str:
    """A move as its button shows it: `8+1`."""
    return move_label(mask)


def describe_rules(rules: Rules, lang: str, *, scoring: bool = True) -> str:
    """A one-liner such as `9 tiles · any combination · one die after 7-8-9 · golf scoring`
    (without the scoring for the long game, which has no scores)."""
    parts = [t(lang, "rules.tiles.short", tiles=rules.tiles)]
    if rules.dice == 3:
        parts.append(t(lang, "rules.three_dice.short"))
    parts.append(t(lang, f"rules.close.{rules.close.value}.short"))
    parts += [t(lang, f"rules.{name}.short") for name in _switched_on(rules)]
    if _one_die_applies(rules):
        parts.append(t(lang, "rules.one_die.short", high=high_tiles(rules)))
    elif not rules.one_die:
        parts.append(t(lang, "rules.hard.short"))
    if scoring:
        parts.append(t(lang, f"rules.scoring.{rules.scoring.value}.short"))
    return RULE_SEPARATOR.join(parts)


def _switched_on(rules: Rules) -> list[str]:
    """The on/off rules these rules switch on, by name, but `hard`: the one-die rule is always
    told, whether it is on or off."""
    return [option.name for option in flags_on(rules) if option.name != "hard"]


def _one_die_applies(rules: Rules) -> bool:
    """The one-die rule needs every high tile closed first: only rules that can shut get there,
    so only they are described with it."""
    return rules.one_die and rules.can_shut


def high_tiles(rules: Rules) -> str:
    """The tiles that lock the one-die rule: `7-8-9` as the sources say it, `7–12` when longer."""
    high = range(HIGH_TILE, rules.tiles + 1)
    if len(high) <= 3:
        return "-".join(str(tile) for tile in high)
    return f"{HIGH_TILE}–{rules.tiles}"


def explain_rules(rules: Rules, lang: str) -> str:
    """One `Title: description` line per rule that applies: turn, closing, dice, scoring, shut."""
    lines = [
        _titled(lang, "rules.text.turn", tiles=rules.tiles),
        _titled(lang, f"rules.close.{rules.close.value}"),
    ]
    lines += [_titled(lang, f"rules.{name}") for name in _switched_on(rules)]
    if rules.dice == 3:
        lines.append(_titled(lang, "rules.three_dice"))
    all_dice = t(lang, f"rules.all_dice.{rules.dice}")
    one_die = "rules.one_die" if _one_die_applies(rules) else "rules.hard"
    lines.append(_titled(lang, one_die, dice=all_dice))
    lines.append(_titled(lang, f"rules.scoring.{rules.scoring.value}"))
    if rules.can_shut:
        lines.append(_titled(lang, "rules.text.shut", max=rules.max_score))
    else:
        lines.append(_titled(lang, "rules.cannot_shut", highest=rules.highest_closable))
    return "\n".join(lines)


def _titled(lang: str, group: str, **params: object) -> str:
    return f"{t(lang, group + '.title')}: {t(lang, group + '.description', **params)}"


def rules_text(preset_name: str, lang: str) -> str:
    """The text for `/shutbox rules [preset]`: the preset, its one-liner, and every rule in full."""
    name = preset_name.strip().lower() or "classic"
    rules = preset(name)
    heading = preset_heading(name, lang)
    summary = t(lang, f"rules.preset.{name}.description")
    counts = t(lang, "rules.counts")  # what reaches the boards, whatever the rules
    return (
        f"{heading}\n{describe_rules(rules, lang)}\n{summary}\n\n{explain_rules(rules, lang)}"
        f"\n\n{counts}"
    )


def preset_heading(name: str, lang: str) -> str:
    """The preset's title, with the name to type after it when the title reads differently."""
    title = t(lang, f"rules.preset.{name}.title")
    return title if title.casefold() == name else f"{title} ({name})"
