"""The rule set of one game as a single frozen value, with the named presets (SPEC section 1-2),
and the rule options that are laid over a preset (`RULE_OPTIONS`, read by `build_rules`).

A new on/off rule is a field of `Rules` plus one `Option` in `RULE_OPTIONS` (with its code in
the text form), both here: the parsers, help texts and command-line options read the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import product
from typing import Any

from core.game.errors import InvalidRules
from core.game.option import Option, Value

TILE_COUNTS = (9, 10, 12)
DICE_COUNTS = (2, 3)
HIGH_TILE = 7  # the one-die rule unlocks once no tile of 7 or more is left to play


class CloseRule(StrEnum):
    """Which tiles a roll may close."""

    ANY = "any"
    SUM_OR_DICE = "sum-or-dice"
    DICE = "dice"
    SEPARATE = "separate"


class Scoring(StrEnum):
    """How a finished turn is scored (lower is better)."""

    SUM = "sum"
    COUNT = "count"


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that decides which moves are legal and how a turn is scored."""

    tiles: int = 9
    dice: int = 2
    close: CloseRule = CloseRule.ANY
    last_die: bool = False
    one_die: bool = True
    scoring: Scoring = Scoring.SUM

    def __post_init__(self) -> None:
        for problem in _problems(self):
            raise InvalidRules("error.rules." + problem[0], **problem[1])

    @property
    def full_mask(self) -> int:
        return (1 << self.tiles) - 1

    @property
    def high_mask(self) -> int:
        """Tiles of 7 and up: while any is still to be played, two dice are compulsory."""
        return self.full_mask & ~((1 << (HIGH_TILE - 1)) - 1)

    @property
    def highest_closable(self) -> int:
        """The highest tile any roll can close: one die's number under `separate`, the sum of
        two dice under `sum-or-dice` and `dice`, the sum of all dice under `any`."""
        if self.close is CloseRule.SEPARATE:
            return 6
        return 6 * self.dice if self.close is CloseRule.ANY else 12

    @property
    def can_shut(self) -> bool:
        """Whether the box can be shut at all (`separate` never closes 7 and up)."""
        return self.highest_closable >= self.tiles

    @property
    def max_score(self) -> int:
        return score_of(self, self.full_mask)

    def one_die_allowed(self, available: int) -> bool:
        """May the player choose one die, given the tiles still to be played?"""
        return self.one_die and not (available & self.high_mask)

    def dice_choices(self, available: int) -> tuple[int, ...]:
        """How many dice the player may roll next: always `dice`, plus 1 under the one-die rule."""
        return (1, self.dice) if self.one_die_allowed(available) else (self.dice,)

    def rolls_again(self, dice: Sequence[int]) -> bool:
        """Whether a roll that allows no move still grants one more roll in the long game.

        Source 001: "Kaster du par, får du et ekstra kast" (a pair gives an extra roll). With
        three dice a pair is any two dice alike (2-2-5 as well as 2-2-2); one die is never a pair.
        The engine, the solvers, the policies and the reviews all read this one predicate.
        """
        return len(set(dice)) < len(dice)

    def to_str(self) -> str:
        """Compact text form, e.g. `t9.d2.any.1d.sum` (see `from_str`); leaderboards key by it."""
        parts = [f"t{self.tiles}", f"d{self.dice}", self.close.value]
        parts += [flag.code for flag in _CODED if getattr(self, flag.name)]
        parts.append("1d" if self.one_die else "hard")
        parts.append(self.scoring.value)
        return ".".join(parts)

    @classmethod
    def from_str(cls, text: str) -> Rules:
        try:
            tiles_part, dice_part, close, *codes, mode, scoring = text.split(".")
            flags = {flag.name: flag.code in codes for flag in _CODED}
            in_order = [flag.code for flag in _CODED if flags[flag.name]]
            if codes != in_order or mode not in ("1d", "hard"):
                raise ValueError(text)
            if tiles_part[0] != "t" or dice_part[0] != "d":
                raise ValueError(text)
            rules = cls(
                tiles=int(tiles_part[1:]),
                dice=int(dice_part[1:]),
                close=CloseRule(close),
                one_die=mode == "1d",
                scoring=Scoring(scoring),
            )
            return rules.with_options(**flags) if any(flags.values()) else rules
        except (ValueError, IndexError) as exc:
            if isinstance(exc, InvalidRules):
                raise
            raise InvalidRules("error.rules.text", text=text) from exc

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed, validated again."""
        return replace(self, **changes)


def _problems(rules: Rules) -> list[tuple[str, dict[str, Any]]]:
    """Why this combination makes no sense (empty when it is fine)."""
    problems: list[tuple[str, dict[str, Any]]] = []
    if rules.tiles not in TILE_COUNTS:
        allowed = ", ".join(map(str, TILE_COUNTS))
        problems.append(("tiles", {"tiles": rules.tiles, "allowed": allowed}))
    if rules.dice not in DICE_COUNTS:
        problems.append(("dice", {"dice": rules.dice}))
    elif rules.dice == 3 and rules.tiles != 12:
        problems.append(("three_dice", {"tiles": rules.tiles}))
    elif rules.dice == 3 and rules.close is not CloseRule.ANY:
        problems.append(("three_dice_close", {"close": rules.close.value}))
    if rules.last_die and rules.close is not CloseRule.SUM_OR_DICE:
        problems.append(("last_die", {"close": rules.close.value}))
    return problems


def score_of(rules: Rules, open_mask: int) -> int:
    """The score of a finished turn: open tiles summed (golf) or counted (missionary)."""
    if rules.scoring is Scoring.COUNT:
        return open_mask.bit_count()
    return sum(tile for tile in range(1, rules.tiles + 1) if open_mask >> (tile - 1) & 1)


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "hard": Rules(one_die=False),
    "sailors": Rules(close=CloseRule.SUM_OR_DICE),
    "kids": Rules(close=CloseRule.DICE),
    "missionary": Rules(scoring=Scoring.COUNT),
    "ten": Rules(tiles=10),
    "twelve": Rules(tiles=12),
}


def preset(name: str) -> Rules:
    """The rules a preset names; an unknown name is refused with the list of presets."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise InvalidRules("error.rules.preset", preset=name, allowed=", ".join(PRESETS)) from None


# Laid over a preset by `build_rules`; left out, a rule is the preset's. The on/off rules but
# the one-die rule (always written: `1d` or `hard`) carry their mark in the text form.
RULE_OPTIONS = (
    Option("preset", str, default="classic", values=tuple(PRESETS)),
    Option("tiles", int, values=TILE_COUNTS),
    Option("dice", int, values=DICE_COUNTS),
    Option("close", str, values=tuple(CloseRule)),
    Option("last_die", bool, code="ld"),
    Option("hard", bool, field="one_die", negated=True),
    Option("scoring", str, values=tuple(Scoring)),
)
_CODED = tuple(option for option in RULE_OPTIONS if option.code)


def build_rules(preset_name: str | None = None, /, **options: Value | None) -> Rules:
    """A preset (classic by default) with any rule options laid over it (None: left out)."""
    base = preset(preset_name) if preset_name else Rules()
    changes: dict[str, Any] = {}
    for name, value in options.items():
        option = _rule_option(name)
        if value is not None:
            changes[option.field or name] = _field_value(option, value)
    return base.with_options(**changes) if changes else base


def flags_on(rules: Rules) -> tuple[Option, ...]:
    """The on/off rule options these rules switch on (`hard`: the one-die rule is off)."""
    return tuple(
        option
        for option in RULE_OPTIONS
        if option.kind is bool and getattr(rules, option.field or option.name) != option.negated
    )


def _rule_option(name: str) -> Option:
    found = next((option for option in RULE_OPTIONS if option.name == name), None)
    if found is None or name == "preset":  # the preset is the base, not laid over it
        raise TypeError(f"build_rules() got an unexpected option {name!r}")
    return found


def _field_value(option: Option, value: Value) -> Value:
    """The value of the rules' field: a choice as its member (`close="Any"` is `CloseRule.ANY`),
    a negated flag turned around."""
    if option.kind is bool:
        return bool(value) != option.negated
    if option.kind is str:
        wanted = str(value).strip().lower()
        found = next((member for member in option.values if member == wanted), None)
        if found is None:
            allowed = ", ".join(str(member) for member in option.values)
            raise InvalidRules("error.rules.choice", option=option.typed, value=value,
                               allowed=allowed)  # fmt: skip
        return found
    return value


def every_rule_set() -> tuple[Rules, ...]:
    """Every valid rule set, from the option table: what per-rules keys (boards, stats) a server
    can hold is a known, finite set (a few dozen), so nothing has to scan for them."""
    table = [option for option in RULE_OPTIONS if option.name != "preset"]
    fields = [option.field or option.name for option in table]
    values = [(False, True) if option.kind is bool else option.values for option in table]
    found: list[Rules] = []
    for combination in product(*values):
        try:
            chosen: dict[str, Any] = dict(zip(fields, combination, strict=True))
            found.append(Rules(**chosen))
        except InvalidRules:
            continue
    return tuple(found)
