"""A server's own settings (`/shutbox config`) and the options of `/shutbox start`."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from core.game.errors import InvalidOption, InvalidRules
from core.game.match import TIMER_RANGE, FormatKind, MatchConfig, MatchFormat, Stakes
from core.game.numbers import MAX_AMOUNT, parse_int
from core.game.rules import PRESETS, TILE_COUNTS, build_rules
from core.text.i18n import LANGS

LOBBY_SECONDS = 600  # a lobby that never starts closes after 10 minutes
# Formats that only end when someone shuts the box. (The long game also ends when B opens
# the whole box, so it ends under every close rule.)
NEEDS_A_SHUT = (FormatKind.FIRST_SHUT,)
MAX_PLAYERS_ALLOWED = 10
MAX_SEASON_DAYS = 3650


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Stored as the server's `cfg` hash; every field can be changed by an admin."""

    lang: str = "en"
    style: str = "emoji"
    preset: str = "classic"
    start_chips: int = 100
    daily: int = 25
    timer: int = 60
    max_players: int = 6
    fair: bool = False
    season_days: int = 0  # a season older than this ends by itself (0: only an admin ends it)

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
        parser = _PARSERS.get(name)
        if parser is None:
            raise InvalidOption("error.config.key", key=name, allowed=", ".join(_PARSERS))
        return replace(self, **{name: parser(value.strip())})


def _text(value: object) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _choice(allowed: tuple[str, ...], name: str) -> Any:
    def parse(value: str) -> str:
        if value.lower() not in allowed:
            raise InvalidOption(
                "error.config.value", key=name, value=value, allowed=", ".join(allowed)
            )
        return value.lower()

    return parse


def _number(name: str, low: int, high: int) -> Any:
    def parse(value: str) -> int:
        try:
            return parse_int(value, name, low, high)
        except InvalidOption as error:
            raise InvalidOption("error.config.range", key=name, value=error.params["value"],
                                min=low, max=high) from None  # fmt: skip

    return parse


def parse_bool(value: str, name: str = "value") -> bool:
    if value.lower() in ("yes", "true", "on", "1", "ja"):
        return True
    if value.lower() in ("no", "false", "off", "0", "nej", "nei"):
        return False
    raise InvalidOption("error.config.value", key=name, value=value, allowed="yes, no")


_PARSERS: dict[str, Any] = {
    "lang": _choice(LANGS, "lang"),
    "style": _choice(("emoji", "text"), "style"),
    "preset": _choice(tuple(PRESETS), "preset"),
    "start_chips": _number("start_chips", 0, MAX_AMOUNT),
    "daily": _number("daily", 0, MAX_AMOUNT),
    "timer": _number("timer", *TIMER_RANGE),
    "max_players": _number("max_players", 1, MAX_PLAYERS_ALLOWED),
    "fair": lambda value: parse_bool(value, "fair"),
    "season_days": _number("season_days", 0, MAX_SEASON_DAYS),
}


@dataclass(frozen=True, slots=True)
class StartOptions:
    """What `/shutbox start` (or `solo`) was given; None means the server's default."""

    preset: str | None = None
    tiles: int | None = None
    dice: int | None = None
    close: str | None = None
    last_die: bool | None = None
    hard: bool | None = None
    scoring: str | None = None
    format: str | None = None
    stakes: str | None = None
    timer: int | None = None
    hints: bool | None = None
    fair: bool | None = None

    def config(self, server: ServerConfig, *, solo: bool = False) -> MatchConfig:
        """The match settings, validated; solo games carry no stakes."""
        rules = build_rules(
            self.preset or server.preset, tiles=self.tiles, dice=self.dice, close=self.close,
            last_die=self.last_die, hard=self.hard, scoring=self.scoring,
        )  # fmt: skip
        stakes = Stakes.parse(self.stakes or "none")
        if solo and stakes.staked:
            raise InvalidOption("error.option.solo_stakes")
        match_format = MatchFormat.parse(self.format or "rounds:1")
        if match_format.kind in NEEDS_A_SHUT and not rules.can_shut:
            # e.g. `close=separate format=first-shut`: tiles 7 and up never close
            raise InvalidRules("error.rules.never_ends", highest=rules.highest_closable,
                               format=match_format.to_str())  # fmt: skip
        return MatchConfig(
            rules=rules,
            format=match_format,
            stakes=stakes,
            timer=self.timer if self.timer is not None else server.timer,
            hints=True if self.hints is None else self.hints,
            max_players=1 if solo else server.max_players,
        )


OPTION_NAMES = {
    "preset": "preset", "tiles": "tiles", "dice": "dice", "close": "close",
    "last-die": "last_die", "last_die": "last_die", "hard": "hard", "scoring": "scoring",
    "format": "format", "rounds": "format", "stakes": "stakes", "timer": "timer",
    "hints": "hints", "fair": "fair",
}  # fmt: skip
INT_OPTIONS = {  # each typed number's range, refused before anything else reads it
    "tiles": (min(TILE_COUNTS), max(TILE_COUNTS)), "dice": (2, 3), "timer": TIMER_RANGE,
}  # fmt: skip
BOOL_OPTIONS = ("last_die", "hard", "hints", "fair")


def options_from_words(pairs: dict[str, str], bare: list[str]) -> StartOptions:
    """`start sailors rounds=3`: one bare word names the preset, as `preset=` would."""
    if bare and "preset" in {key.lower() for key in pairs}:
        given = next(value for key, value in pairs.items() if key.lower() == "preset")
        raise InvalidOption("error.option.twice", option="preset", first=bare[0], second=given)
    return options_from_pairs({**pairs, "preset": bare[0]} if bare else pairs)


def options_from_pairs(pairs: dict[str, str]) -> StartOptions:
    """`key=value` options as typed in Slack or the playground; unknown, empty or conflicting
    keys are refused with one line that says so (nothing is silently dropped)."""
    values: dict[str, Any] = {}
    given: dict[str, str] = {}
    for key, raw in pairs.items():
        name = OPTION_NAMES.get(key.lower())
        if name is None:
            raise InvalidOption(
                "error.option.unknown",
                key=key,
                allowed=", ".join(sorted(set(OPTION_NAMES) - {"last_die"})),
            )
        if not raw.strip():
            raise InvalidOption("error.option.empty", option=key)
        if name in given:
            raise InvalidOption("error.option.conflict", first=given[name], second=key)
        given[name] = key
        values[name] = _option_value(key, name, raw)
    return StartOptions(**values)


def _option_value(key: str, name: str, raw: str) -> Any:
    if name in INT_OPTIONS:
        return parse_int(raw, key, *INT_OPTIONS[name])
    if name in BOOL_OPTIONS:
        return parse_bool(raw, key)
    if key.lower() == "rounds":
        return f"rounds:{raw}"
    return raw
