"""A server's own settings (`/shutbox config`) and the options of `/shutbox start`.

Both are read from option tables: the game's (`core/game/options.py`) for `start`, and
`SETTINGS` below, which takes the game's preset, timer and fair-dice options as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from core.game.errors import InvalidOption, InvalidRules
from core.game.match import FormatKind, MatchConfig, MatchFormat, Stakes, StakesKind
from core.game.numbers import MAX_AMOUNT, is_digits, parse_int, shown
from core.game.option import Option, Value
from core.game.option import parse_bool as parse_bool  # noqa: PLC0414 (re-exported)
from core.game.options import OPTIONS, find_option
from core.game.rules import PRESETS, RULE_OPTIONS, build_rules
from core.service.model import unreadable
from core.service.model.unreadable import Unreadable
from core.text.i18n import LANGS

LOBBY_SECONDS = 600  # a lobby that never starts closes after 10 minutes
# Formats that only end when someone shuts the box. (The long game also ends when B opens
# the whole box, so it ends under every close rule.)
NEEDS_A_SHUT = (FormatKind.FIRST_SHUT,)
MAX_PLAYERS_ALLOWED = 10
MAX_SEASON_DAYS = 3650
STYLES = ("image", "emoji", "text")  # image: where the platform can show it, else emoji
# When a human is called by name: every turn, only at the match's first turn, or never.
PING_MODES = ("turn", "start", "off")

SETTINGS: dict[str, Option] = {
    option.name: option
    for option in (
        Option("lang", str, values=LANGS),
        Option("style", str, values=STYLES),
        OPTIONS["preset"],
        Option("start_chips", int, bounds=(0, MAX_AMOUNT), shown=("N",)),
        Option("daily", int, bounds=(0, MAX_AMOUNT), shown=("N",)),
        OPTIONS["timer"],
        Option("max_players", int, bounds=(1, MAX_PLAYERS_ALLOWED)),
        OPTIONS["fair"],
        Option("season_days", int, bounds=(0, MAX_SEASON_DAYS)),
        Option("ping", str, values=PING_MODES),
    )
}


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Stored as the server's `cfg` hash; every field can be changed by an admin."""

    lang: str = "en"
    style: str = "image"
    preset: str = "classic"
    start_chips: int = 100
    daily: int = 25
    timer: int = 60
    max_players: int = 6
    fair: bool = False
    season_days: int = 0  # a season older than this ends by itself (0: only an admin ends it)
    ping: str = "turn"  # call the player whose turn it is: every turn, at the start, or off

    @classmethod
    def from_fields(cls, stored: dict[str, str]) -> ServerConfig:
        """Read the stored hash, ignoring anything unknown or broken (defaults stand in)."""
        config = cls()
        for name, value in stored.items():
            try:
                config = config.updated(name, value)
            except InvalidOption:
                continue
        return config

    def to_fields(self) -> dict[str, str]:
        return {f.name: _text(getattr(self, f.name)) for f in fields(self)}

    def updated(self, name: str, value: str) -> ServerConfig:
        """A copy with one setting changed; a bad name or value says what is allowed."""
        setting = SETTINGS.get(name)
        if setting is None:
            raise InvalidOption("error.config.key", key=name, allowed=", ".join(SETTINGS))
        changes: dict[str, Any] = {name: _setting_value(setting, value.strip())}
        return replace(self, **changes)


def unreadable_settings(stored: dict[str, str]) -> list[Unreadable]:
    """The stored settings whose value `ServerConfig.from_fields` passes over, one `Unreadable`
    each: the server goes on with the defaults. (A name no longer known is simply left.)"""
    broken = []
    for name, value in stored.items():
        if name not in SETTINGS:
            continue
        try:
            ServerConfig().updated(name, value)
        except InvalidOption as error:
            broken.append(unreadable.setting(name, error.key))
    return broken


def _text(value: object) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _setting_value(setting: Option, value: str) -> Value:
    """A setting's value, checked at once: a number in its range, yes/no, or one of its choices."""
    name = setting.name
    if setting.kind is bool:
        return parse_bool(value, name)
    if setting.kind is int:
        try:
            return parse_int(value, name, *setting.range)
        except InvalidOption as error:
            low, high = setting.range
            raise InvalidOption("error.config.range", key=name, value=error.params["value"],
                                min=low, max=high) from None  # fmt: skip
    if value.lower() not in setting.values:
        allowed = ", ".join(str(choice) for choice in setting.values)
        raise InvalidOption("error.config.value", key=name, value=value, allowed=allowed)
    return value.lower()


@dataclass(frozen=True, slots=True, init=False)
class StartOptions:
    """What `/shutbox start` (or `solo`) was given. None, or left out, is the default: the
    server's preset, timer and fair dice, the preset's rules, the option table's for the rest.

    The rule options (`tiles=12`, `hard=True`: any of `RULE_OPTIONS` but the preset) are
    keywords like the others and are kept together in `rules`, so a new rule option needs
    nothing here.
    """

    preset: str | None
    format: str | None
    stakes: str | None
    timer: int | None
    hints: bool | None
    fair: bool | None
    rules: tuple[tuple[str, Value], ...]  # the rule options given, in the table's order

    def __init__(
        self, preset: str | None = None, format: str | None = None, stakes: str | None = None,
        timer: int | None = None, hints: bool | None = None, fair: bool | None = None,
        **rules: Value | None,
    ) -> None:  # fmt: skip
        unknown = sorted(set(rules) - set(_RULE_NAMES))
        if unknown:
            raise TypeError(f"StartOptions() got unexpected keyword arguments {unknown}")
        given = tuple((name, rules[name]) for name in _RULE_NAMES if rules.get(name) is not None)
        values = {"preset": preset, "format": format, "stakes": stakes, "timer": timer,
                  "hints": hints, "fair": fair, "rules": given}  # fmt: skip
        for name, value in values.items():
            object.__setattr__(self, name, value)  # frozen: set once, here

    def config(self, server: ServerConfig, *, solo: bool = False) -> MatchConfig:
        """The match settings, validated; solo games carry no stakes."""
        rules = build_rules(self.preset or server.preset, **dict(self.rules))
        stakes = Stakes.parse(self.stakes or _default("stakes"))
        if solo and stakes.staked:
            raise InvalidOption("error.option.solo_stakes")
        match_format = MatchFormat.parse(self.format or _default("format"))
        if match_format.kind in NEEDS_A_SHUT and not rules.can_shut:
            # e.g. `close=separate format=first-shut`: tiles 7 and up never close
            raise InvalidRules("error.rules.never_ends", highest=rules.highest_closable,
                               format=match_format.to_str())  # fmt: skip
        return MatchConfig(
            rules=rules,
            format=match_format,
            stakes=stakes,
            timer=self.timer if self.timer is not None else server.timer,
            hints=bool(OPTIONS["hints"].default) if self.hints is None else self.hints,
            max_players=1 if solo else server.max_players,
        )


_RULE_NAMES = tuple(option.name for option in RULE_OPTIONS if option.name != "preset")


def _default(name: str) -> str:
    return str(OPTIONS[name].default)


def options_from_words(pairs: dict[str, str], bare: list[str]) -> StartOptions:
    """`start sailors to-45 pot:5 rounds=3`: as the help spells it, a bare word names a preset,
    a format or stakes (whichever it is), as `preset=`, `format=` or `stakes=` would."""
    named: dict[str, str] = {}
    for word in bare:
        key = _bare_option(word)
        if key in named:
            raise InvalidOption("error.option.twice", option=key, first=named[key], second=word)
        typed = next((value for name, value in pairs.items() if name.lower() == key), None)
        if typed is not None:
            raise InvalidOption("error.option.twice", option=key, first=word, second=typed)
        named[key] = word
    return options_from_pairs({**pairs, **named})


def _bare_option(word: str) -> str:
    """Which option a bare word gives; a word that is none of them is refused with the lists.
    A lone number could be rounds or seconds, so it is asked to be written out."""
    text = word.strip().lower()
    if text in PRESETS:
        return "preset"
    if is_digits(text):
        raise InvalidOption("error.option.bare_number", value=shown(word))
    name = text.partition(":")[0]
    if name in {kind.value for kind in FormatKind}:
        MatchFormat.parse(text)  # a known name with a bad count: its own error says what
        return "format"
    if name in {kind.value for kind in StakesKind}:
        Stakes.parse(text)
        return "stakes"
    raise InvalidOption("error.option.bare", value=shown(word))


def options_from_pairs(pairs: dict[str, str]) -> StartOptions:
    """`key=value` options as typed in Slack or the playground; unknown, empty or conflicting
    keys are refused with one line that says so (nothing is silently dropped)."""
    values: dict[str, Any] = {}
    given: dict[str, str] = {}
    for key, raw in pairs.items():
        option = find_option(key)
        if option is None:
            allowed = ", ".join(sorted(known.typed for known in OPTIONS.values()))
            raise InvalidOption("error.option.unknown", key=key, allowed=allowed)
        if not raw.strip():
            raise InvalidOption("error.option.empty", option=key)
        name = option.into or option.name  # `rounds` and `format` both set the format
        if name in given:
            raise InvalidOption("error.option.conflict", first=given[name], second=key)
        given[name] = key
        values[name] = option.read(raw, key)
    return StartOptions(**values)
