"""What one option of a game is: its name, the type and values it takes, its default, and
where its help text is; and how a value typed as `key=value` is read.

The options themselves are entries of tables next to what they set (`RULE_OPTIONS` beside
`Rules`, `MATCH_OPTIONS` beside the match settings), found by name in `core/game/options.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.game.errors import InvalidOption, InvalidRules
from core.game.numbers import parse_int

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
    code: str = ""  # an on/off rule's mark in the rules' text form when on (`ld`)

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

    def field_value(self, value: Value) -> Value:
        """The value of the rules' field it sets: a choice as its member (`close="Any"` is
        `CloseRule.ANY`), a negated flag turned around."""
        if self.kind is bool:
            return bool(value) != self.negated
        if self.kind is str:
            wanted = str(value).strip().lower()
            found = next((member for member in self.values if member == wanted), None)
            if found is None:
                allowed = ", ".join(str(member) for member in self.values)
                raise InvalidRules("error.rules.choice", option=self.typed, value=value,
                                   allowed=allowed)  # fmt: skip
            return found
        return value

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
