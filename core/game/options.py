"""Every option a game is started with, in one table: the rules laid over a preset, and the match.

As in python-chess's `chess/variant.py` (a variant is one class plus one entry in `VARIANTS`,
found by name), an option is one entry here, found by name. Everything else is read from the
table: the rules builder below, the `key=value` parser of Slack and the playground, the help
texts that list the options, the command line's `--options`, the `{presets}` of the catalogs,
and the test that holds Discord's written-out slash-command parameters to it.

A new on/off rule is a field of `Rules` (with its code in the rules' text form), one `Option`
in `RULE_OPTIONS`, its texts in the catalogs (`option.<name>.help`, `rules.<name>.*`), and
Discord's parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from core.game.errors import InvalidOption, InvalidRules
from core.game.match import FORMAT_FORMS, MAX_ROUNDS, STAKES_FORMS, TIMER_RANGE, FormatKind
from core.game.numbers import parse_int
from core.game.rules import DICE_COUNTS, PRESETS, TILE_COUNTS, CloseRule, Rules, Scoring, preset

Value = bool | int | str
YES_NO = ("yes", "no")


@dataclass(frozen=True, slots=True)
class Option:
    """One option: its name, the type and values it takes, its default, and its help text.

    `name` is the keyword and field name (`last_die`); people type it with dashes (`last-die`).
    A default of None means the preset's value (a rule) or the server's setting (timer, fair).
    """

    name: str
    kind: type[bool] | type[int] | type[str]
    default: Value | None = None
    values: tuple[Value, ...] = ()  # the allowed values, when the option is a choice
    bounds: tuple[int, int] | None = None  # a number's range
    shown: tuple[str, ...] = ()  # how help lists the values, where the values alone can't
    field: str = ""  # the rules' field it sets, when not its own name (`hard` sets `one_die`)
    negated: bool = False  # on means its field off: `hard=yes` is `one_die=False`
    into: str = ""  # the option a shorthand fills in: `rounds=5` is `format=rounds:5`
    written: str = "{}"  # how a shorthand's value is written there (`rounds:{}`)

    @property
    def typed(self) -> str:
        """The name as people type it: `last-die`."""
        return self.name.replace("_", "-")

    @property
    def help_key(self) -> str:
        """The catalog key of its one-line help (Discord's description, the CLI's `--help`)."""
        return f"option.{self.name}.help"

    @property
    def range(self) -> tuple[int, int]:
        """A number's smallest and largest value (of its choices, when it has some)."""
        if self.bounds is not None:
            return self.bounds
        numbers = [value for value in self.values if isinstance(value, int)]
        return min(numbers), max(numbers)

    def listed(self) -> tuple[str, ...]:
        """The values as help lists them: `yes`, `no`; `9`, `10`, `12`; `10-3600`; `rounds:N`."""
        if self.shown:
            return self.shown
        if self.kind is bool:
            return YES_NO
        if self.values:
            return tuple(str(value) for value in self.values)
        low, high = self.range
        return (f"{low}-{high}",)

    def read(self, raw: str, key: str) -> Value:
        """A typed `key=value`: yes/no and numbers are checked here (naming `key` as typed);
        choices and texts are checked where they are used (the rules, the match format)."""
        if self.into:
            return self.written.format(raw)
        if self.kind is bool:
            return parse_bool(raw, key)
        if self.kind is int:
            return parse_int(raw, key, *self.range)
        return raw


def parse_bool(value: str, name: str = "value") -> bool:
    """`yes`/`no` as people type it, in English, Danish or Norwegian, or as `on`, `true`, `1`."""
    if value.lower() in ("yes", "true", "on", "1", "ja"):
        return True
    if value.lower() in ("no", "false", "off", "0", "nej", "nei"):
        return False
    raise InvalidOption("error.config.value", key=name, value=value, allowed=", ".join(YES_NO))


# Laid over the preset by `build_rules`; the rules' own defaults are the preset's.
RULE_OPTIONS = (
    Option("preset", str, default="classic", values=tuple(PRESETS)),
    Option("tiles", int, values=TILE_COUNTS),
    Option("dice", int, values=DICE_COUNTS),
    Option("close", str, values=tuple(CloseRule)),
    Option("last_die", bool),
    Option("hard", bool, field="one_die", negated=True),
    Option("scoring", str, values=tuple(Scoring)),
)
# How the match is played; the timer and fair dice default to the server's settings.
MATCH_OPTIONS = (
    Option("rounds", int, bounds=(1, MAX_ROUNDS), shown=("N",), into="format", written="rounds:{}"),
    Option("format", str, default="rounds:1", values=tuple(FormatKind), shown=FORMAT_FORMS),
    Option("stakes", str, default="none", shown=STAKES_FORMS),
    Option("timer", int, bounds=TIMER_RANGE),
    Option("hints", bool, default=True),
    Option("fair", bool),
)
OPTIONS: Mapping[str, Option] = MappingProxyType(
    {option.name: option for option in (*RULE_OPTIONS, *MATCH_OPTIONS)}
)
_BY_TYPED = {typed: option for option in OPTIONS.values() for typed in (option.name, option.typed)}


def find_option(key: str) -> Option | None:
    """The option a typed key names (`last-die` or `last_die`, in any case), if any."""
    return _BY_TYPED.get(key.lower())


def build_rules(preset_name: str | None = None, /, **options: Value | None) -> Rules:
    """A preset (classic by default) with any rule options laid over it (None: left out)."""
    base = preset(preset_name) if preset_name else Rules()
    changes: dict[str, Any] = {}
    for name, value in options.items():
        option = _rule_option(name)
        if value is not None:
            changes[option.field or name] = _rules_value(option, value)
    return base.with_options(**changes) if changes else base


def flags_on(rules: Rules) -> tuple[Option, ...]:
    """The on/off rule options these rules switch on (`hard`: the one-die rule is off)."""
    return tuple(
        option
        for option in RULE_OPTIONS
        if option.kind is bool and getattr(rules, option.field or option.name) != option.negated
    )


def _rule_option(name: str) -> Option:
    option = OPTIONS.get(name)
    if option is None or option not in RULE_OPTIONS or name == "preset":
        raise TypeError(f"build_rules() got an unexpected option {name!r}")
    return option


def _rules_value(option: Option, value: Value) -> Value:
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
