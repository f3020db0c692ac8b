"""Why a roll ends the turn, in the words of the close rule in force (SPEC 1, "saying why").

"No tiles add up to 12" is only the reason under the `any` rule. Under the other rules the roll
is closed by the sum's tile or the dice's own tiles, so the reason names those tiles: "there is no
tile 12, and a double can't close 6 twice".
"""

from __future__ import annotations

from dataclasses import dataclass

from core.game.moves import bit
from core.game.rules import CloseRule, Rules
from core.text.i18n import join_list, t
from core.text.render import high_tiles


@dataclass(frozen=True, slots=True)
class Clause:
    key: str
    params: tuple[tuple[str, object], ...] = ()


def no_move_reason(
    rules: Rules, available: int, dice: tuple[int, ...], lang: str, *, opening: bool = False
) -> str:
    """One phrase (no capital, no full stop) saying why no move fits this roll."""
    texts = [
        t(lang, c.key, **_words(lang, c.params))
        for c in _clauses(rules, available, dice, opening=opening)
    ]
    if len(texts) == 2:
        return t(lang, "reason.both", first=texts[0], second=texts[1])
    return texts[0]


def _words(lang: str, params: tuple[tuple[str, object], ...]) -> dict[str, object]:
    """Tile lists as the language lists things: `2 and 6`, `2 og 6`."""
    return {
        name: join_list(lang, [str(tile) for tile in value]) if isinstance(value, tuple) else value
        for name, value in params
    }


def _clauses(rules: Rules, available: int, dice: tuple[int, ...], *, opening: bool) -> list[Clause]:
    total = sum(dice)
    if rules.close is CloseRule.ANY:
        return [Clause("reason.closed_sum" if opening else "reason.sum", (("total", total),))]
    if len(dice) == 1:
        return [_unavailable(rules, [dice[0]], available, opening)]
    a, b = dice
    if rules.close is CloseRule.SEPARATE:
        return [_unavailable(rules, [a, b], available, opening)]
    if rules.close is CloseRule.DICE:
        return [*_sum_tile(rules, total, available, opening, also=[a, b])]
    return _sum_or_dice(rules, available, a, b, opening)


def _sum_or_dice(rules: Rules, available: int, a: int, b: int, opening: bool) -> list[Clause]:
    pair = _pair(rules, available, a, b, opening)
    if rules.one_die_allowed(available):
        # Source 003: once 7-8-9 are shut, two dice close the dice's own tiles, never the sum.
        return [Clause("reason.after_high", (("high", high_tiles(rules)),)), pair]
    return _merged([*_sum_tile(rules, a + b, available, opening, also=[]), pair])


def _merged(clauses: list[Clause]) -> list[Clause]:
    """`tile 5 is shut, and tile 3 is shut` reads better as `tiles 3 and 5 are shut`."""
    first, second = clauses
    if first.key != second.key or first.key not in ("reason.tiles_shut", "reason.tiles_open"):
        return clauses
    tiles = tuple(sorted({*dict(first.params)["tiles"], *dict(second.params)["tiles"]}))  # type: ignore[misc]
    return [Clause(first.key, (("count", len(tiles)), ("tiles", tiles)))]


def _pair(rules: Rules, available: int, a: int, b: int, opening: bool) -> Clause:
    if a == b and not (rules.last_die and not available & bit(a)):
        return Clause("reason.double", (("die", a),))
    return _unavailable(rules, [a, b], available, opening)


def _sum_tile(
    rules: Rules, total: int, available: int, opening: bool, also: list[int]
) -> list[Clause]:
    """The sum's own tile: there is none, or it is shut (with `also`, the dice's tiles too)."""
    if total > rules.tiles:
        missing = [Clause("reason.no_tile", (("total", total),))]
        return missing + ([_unavailable(rules, also, available, opening)] if also else [])
    return [_unavailable(rules, [total, *also], available, opening)]


def _unavailable(rules: Rules, tiles: list[int], available: int, opening: bool) -> Clause:
    """`tile 6 is shut` / `tiles 2 and 6 are shut` (or open, for the opener of the long game)."""
    shown = sorted({tile for tile in tiles if tile <= rules.tiles and not available & bit(tile)})
    key = "reason.tiles_open" if opening else "reason.tiles_shut"
    return Clause(key, (("count", len(shown)), ("tiles", tuple(shown))))
