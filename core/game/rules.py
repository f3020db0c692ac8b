"""The rule set of one game as a single frozen value, with the named presets (SPEC section 1-2),
and the rule options that are laid over a preset (`RULE_OPTIONS`, read by `build_rules`).

`Rules` also says what its rules do (what a roll may close, how many dice may be rolled, which
unusable roll rolls again, the score): the engine, solvers, policies, odds and reviews ask it and
nothing else. A close rule is a `Closing` (`core/game/closing.py`); an on/off rule is a field,
one `Option` in `RULE_OPTIONS` and its behaviour in these methods (`settle` for the moves).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any

from core.game.closing import ByTotal, Closing, DiceTiles, RollKey, Separate, SumOrDice
from core.game.errors import InvalidRules
from core.game.moves import Options, display_order, either_tile
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
        """The highest tile any roll can close (the close rule's `highest_closable`)."""
        return self.closing.highest_closable(self)

    @property
    def can_shut(self) -> bool:
        """Whether the box can be shut at all (`separate` never closes 7 and up)."""
        return self.highest_closable >= self.tiles

    @property
    def max_score(self) -> int:
        return self.score(self.full_mask)

    def score(self, open_mask: int) -> int:
        """The score of a finished turn: open tiles summed (golf) or counted (missionary)."""
        if self.scoring is Scoring.COUNT:
            return open_mask.bit_count()
        return sum(tile for tile in range(1, self.tiles + 1) if open_mask >> (tile - 1) & 1)

    def one_die_allowed(self, available: int) -> bool:
        """May the player choose one die, given the tiles still to be played?"""
        return self.one_die and not (available & self.high_mask)

    def dice_choices(self, available: int) -> tuple[int, ...]:
        """How many dice the player may roll next: always `dice`, plus 1 under the one-die rule."""
        return (1, self.dice) if self.one_die_allowed(available) else (self.dice,)

    @property
    def closing(self) -> Closing:  # the close rule's hooks, asked by these methods only
        return CLOSINGS[self.close]

    def allows(self, available: int, dice: tuple[int, ...]) -> Options:
        """What this roll allows on the `available` tiles (the open ones, or the closed ones for
        the long game's opener): the moves in display order, and whether making one ends the
        turn (the last-die rule)."""
        return _allows(self, available, dice)

    def allows_on_boards(self, dice: tuple[int, ...], boards: Iterable[int]) -> dict[int, Options]:
        """`allows` for this roll on each of the boards, the moves in no set order: what the
        solvers ask on every board. The same two steps as `allows` (the close rule's moves,
        then `settle`); boards that agree on the tiles the roll `reads` are answered once."""
        closer, read, settle = self.closing.closer(self, dice), self.reads(dice), self.settle
        if read == self.full_mask:
            return {board: settle(board, dice, closer(board)) for board in boards}
        known: dict[int, Options] = {}
        for board in boards:
            if board & read not in known:
                known[board & read] = settle(board & read, dice, closer(board & read))
        return {board: known[board & read] for board in boards}

    def settle(self, available: int, dice: tuple[int, ...], found: Options) -> Options:
        """What the rule options make of what the close rule found: every move of every path
        (`allows`, `allows_on_boards`) passes here, so a rule option that narrows or widens the
        moves does it here and the engine and the solvers both follow."""
        if found.moves:
            return found
        if self.last_die and len(dice) == 2:
            # Source 003 variation: close the tile of one die, and the turn ends there.
            singles = either_tile(available, dice, self.tiles)
            if singles:
                return Options(singles, ends_turn=True)
        return found

    def reads(self, dice: tuple[int, ...]) -> int:
        """The tiles whose state can change what `dice` allow (boards that agree on them allow
        the same moves): every tile under `any`; else the dice's, their total's, the high ones."""
        return self.closing.reads(self, dice)

    def roll_key(self, dice: tuple[int, ...]) -> RollKey:
        """What of a roll decides its moves (rolls with the same key allow the same moves on
        every board): the total under `any`, else the dice in any order. The solvers, the
        policies and the odds group rolls by it."""
        return self.closing.roll_key(dice)

    def rolls_again(self, dice: Sequence[int], *, long_game: bool) -> bool:
        """Whether a roll that allows no move grants the same player one more roll.

        Source 001, the long game: "Kaster du par, får du et ekstra kast" (a pair gives an extra
        roll). With three dice a pair is any two dice alike (2-2-5 as well as 2-2-2); one die is
        never a pair. The other formats have no extra roll. The engine, the solvers, the
        predictions and the reviews all read this one predicate, in every format.
        """
        return long_game and len(set(dice)) < len(dice)

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
            changes[option.field or name] = option.field_value(value)
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


CLOSINGS: dict[CloseRule, Closing] = {
    CloseRule.ANY: ByTotal(),
    CloseRule.SUM_OR_DICE: SumOrDice(),
    CloseRule.DICE: DiceTiles(),
    CloseRule.SEPARATE: Separate(),
}


@lru_cache(maxsize=1 << 16)
def _allows(rules: Rules, available: int, dice: tuple[int, ...]) -> Options:
    """`Rules.allows`, cached: the engine, the views and the hints all ask the same question
    several times per click."""
    found = rules.settle(available, dice, Options(rules.closing.closings(rules, available, dice)))
    return Options(display_order(found.moves), found.ends_turn)
