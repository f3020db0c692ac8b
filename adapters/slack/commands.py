"""`/shutbox <subcommand> key=value ...`: the text Slack sends, read into one typed command.

Anything that does not fit raises `UsageError` (a `ShutboxError` with a `slack.*` catalog key),
which the handler shows privately in the workspace's language; nothing changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from core.game.errors import ShutboxError
from core.game.numbers import MAX_AMOUNT, is_integer, parse_int, shown
from core.service.seasons import MAX_SEASON
from core.service.settings import StartOptions, options_from_words, parse_bool

_TOKEN = re.compile(r"<[^>]*>|\S+")  # a mention like `<@U1|ann lee>` stays one word
_MENTION = re.compile(r"<@([UW][A-Z0-9]+)(?:\|([^>]*))?>")


class UsageError(ShutboxError):
    """The command text does not fit the subcommand; `key` says how."""

    key = "slack.pairs_only"


@dataclass(frozen=True, slots=True)
class Mention:
    """A Slack user named in the text: `<@U123|ann>` or `<@U123>`."""

    user: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Open:
    """`start` or `solo` with its options."""

    options: StartOptions
    solo: bool = False


@dataclass(frozen=True, slots=True)
class Plain:
    """A subcommand without options: join, leave, stop, balance, daily, review, help."""

    name: str


@dataclass(frozen=True, slots=True)
class Leaderboard:
    board: str = "wins"
    preset: str | None = None
    season: int | None = None  # an ended season's archived board


@dataclass(frozen=True, slots=True)
class Season:
    """`season`, or `season end [reset_chips=yes]` (admins)."""

    end: bool = False
    reset_chips: bool = False


@dataclass(frozen=True, slots=True)
class Stats:
    target: Mention | None = None


@dataclass(frozen=True, slots=True)
class Rank:
    target: Mention | None = None


@dataclass(frozen=True, slots=True)
class Info:
    """`rules [preset]` or `odds [preset]`."""

    name: str
    preset: str | None = None


@dataclass(frozen=True, slots=True)
class Configure:
    changes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Grant:
    target: Mention
    amount: int


@dataclass(frozen=True, slots=True)
class Give:
    target: Mention
    amount: int


Command = Open | Plain | Leaderboard | Stats | Rank | Info | Configure | Grant | Give | Season


@dataclass(frozen=True, slots=True)
class Words:
    """The words after the subcommand, split into `key=value` pairs and bare words."""

    pairs: dict[str, str]
    bare: list[str]


def parse(text: str) -> Command:
    """The command in a `/shutbox` text; an empty text asks for help."""
    tokens = _TOKEN.findall(text)
    if not tokens:
        return Plain("help")
    name, rest = tokens[0].lower(), tokens[1:]
    parser = _PARSERS.get(name)
    if parser is None:
        raise UsageError("slack.unknown_command", command=tokens[0], allowed=", ".join(_PARSERS))
    return parser(name, rest)


def split_words(tokens: list[str]) -> Words:
    """`key=value` words as a dict (a key given twice is refused), the rest as bare words."""
    pairs: dict[str, str] = {}
    bare: list[str] = []
    for token in tokens:
        key, equals, value = token.partition("=")
        if not equals or not key:
            bare.append(token)
            continue
        if key.lower() in pairs:
            raise UsageError("slack.duplicate", option=key)
        pairs[key.lower()] = value
    return Words(pairs, bare)


def parse_mention(token: str) -> Mention:
    found = _MENTION.fullmatch(token)
    if found is None:
        raise UsageError("slack.mention", value=token)
    return Mention(found.group(1), found.group(2) or None)


def _open(name: str, tokens: list[str]) -> Command:
    """`start [preset] key=value ...`: one bare word names the preset."""
    words = split_words(tokens)
    if len(words.bare) > 1:
        raise UsageError("slack.pairs_only", value=words.bare[-1])
    bare = [word.lower() for word in words.bare]
    return Open(options_from_words(dict(words.pairs), bare), solo=name == "solo")


def _plain(name: str, tokens: list[str]) -> Command:
    if tokens:
        raise UsageError("slack.no_options", command=name, value=" ".join(tokens))
    return Plain(name)


def _only(words: Words, *keys: str) -> None:
    """Refuse any `key=` other than `keys`."""
    for key in words.pairs:
        if key not in keys:
            raise UsageError("error.option.unknown", key=key, allowed=", ".join(keys))


def _leaderboard(name: str, tokens: list[str]) -> Command:
    """`leaderboard [board] [preset=P] [season=N]` (or `board=B`)."""
    words = split_words(tokens)
    _only(words, "board", "preset", "season")
    if len(words.bare) > 1 or (words.bare and "board" in words.pairs):
        raise UsageError("slack.pairs_only", value=words.bare[-1])
    board = words.bare[0] if words.bare else words.pairs.get("board", "wins")
    season = words.pairs.get("season")
    number = None if season is None else parse_int(season, "season", 1, MAX_SEASON)
    return Leaderboard(board.lower(), words.pairs.get("preset"), number)


def _season(name: str, tokens: list[str]) -> Command:
    """`season`, `season end`, `season end reset_chips=yes`."""
    words = split_words(tokens)
    _only(words, "reset_chips")
    if [word.lower() for word in words.bare] not in ([], ["end"]):
        raise UsageError("slack.pairs_only", value=words.bare[-1])
    reset = words.pairs.get("reset_chips")
    return Season(bool(words.bare), parse_bool(reset, "reset_chips") if reset else False)


def _info(name: str, tokens: list[str]) -> Command:
    """`rules [preset]`, `odds [preset]` (or `preset=P`)."""
    words = split_words(tokens)
    _only(words, "preset")
    if len(words.bare) > 1 or (words.bare and words.pairs):
        raise UsageError("slack.pairs_only", value=words.bare[-1])
    preset = words.bare[0] if words.bare else words.pairs.get("preset")
    return Info(name, preset.lower() if preset else None)


def _stats(name: str, tokens: list[str]) -> Command:
    if len(tokens) > 1:
        raise UsageError("slack.no_options", command="stats @user", value=" ".join(tokens[1:]))
    return Stats(parse_mention(tokens[0]) if tokens else None)


def _rank(name: str, tokens: list[str]) -> Command:
    if len(tokens) > 1:
        raise UsageError("slack.no_options", command="rank @user", value=" ".join(tokens[1:]))
    return Rank(parse_mention(tokens[0]) if tokens else None)


def _configure(name: str, tokens: list[str]) -> Command:
    words = split_words(tokens)
    if words.bare:
        raise UsageError("slack.pairs_only", value=words.bare[0])
    return Configure(words.pairs)


def _grant(name: str, tokens: list[str]) -> Command:
    """`grant @user N`: N may be negative to take chips."""
    if len(tokens) != 2:
        raise UsageError("slack.grant_usage")
    target = parse_mention(tokens[0])
    return Grant(target, parse_int(tokens[1], "amount", -MAX_AMOUNT, MAX_AMOUNT))


def _give(name: str, tokens: list[str]) -> Command:
    """`give @user N`: the core refuses N <= 0 or above the limit with its own line."""
    if len(tokens) != 2:
        raise UsageError("slack.give_usage")
    if not is_integer(tokens[1]):
        raise UsageError("slack.grant_amount", value=shown(tokens[1]))
    return Give(parse_mention(tokens[0]), int(tokens[1]))


_PARSERS: dict[str, Callable[[str, list[str]], Command]] = {
    "start": _open, "solo": _open, "join": _plain, "leave": _plain, "stop": _plain,
    "leaderboard": _leaderboard, "stats": _stats, "balance": _plain, "daily": _plain,
    "rules": _info, "odds": _info, "config": _configure, "grant": _grant, "give": _give,
    "rank": _rank, "review": _plain, "season": _season,
    "help": _plain,
}  # fmt: skip
SUBCOMMANDS = tuple(_PARSERS)
