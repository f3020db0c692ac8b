"""`/shutbox <subcommand> key=value ...`: typed command text read into one command value.

Every text surface reads its words here: Slack's slash command, the playground's typed lines,
and any later text platform. What differs between them is passed in: how a member is written
(`Mentions`: `<@U1|ann>` on Slack, a plain name in the playground). Anything that does not fit
raises `UsageError`, a `ShutboxError` whose `usage.*` catalog key words the mistake; nothing
changes. Which words each subcommand takes is its entry in the subcommand table
(core/service/pipeline/subcommands.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from core.game.errors import ShutboxError
from core.game.numbers import MAX_AMOUNT, is_integer, parse_int, shown
from core.service.api.commands import (
    Command,
    Configure,
    Give,
    Grant,
    Help,
    Leaderboard,
    Season,
    Stats,
    Web,
)
from core.service.features.gifts import Recipient
from core.service.features.seasons import MAX_SEASON
from core.service.model.settings import StartOptions, options_from_words, parse_bool

_TOKEN = re.compile(r"<[^>]*>|\S+")  # a mention like `<@U1|ann lee>` stays one word
MAX_PAGE = 10_000  # leaderboard pages one may ask for by number


class UsageError(ShutboxError):
    """The command text does not fit the subcommand; `key` says how."""

    key = "usage.pairs_only"


@dataclass(frozen=True, slots=True)
class Mention:
    """A member named in the text: their id, and the name written with it if any."""

    user: str
    name: str | None = None


class Mentions(Protocol):
    """How a platform writes a member in command text."""

    @property
    def one_word(self) -> bool:
        """A mention is one word (Slack's `<@U1|ann>`), else it is all the words left for it."""
        ...

    def read(self, text: str) -> Mention:
        """The member `text` names; a `UsageError` if it names nobody."""
        ...


@dataclass(frozen=True, slots=True)
class Words:
    """The words after the subcommand, split into `key=value` pairs and bare words."""

    pairs: dict[str, str]
    bare: list[str]


Parser = Callable[[str, list[str], Mentions], Command]


def read(text: str, mentions: Mentions, grammar: Mapping[str, Parser]) -> Command:
    """The command in a `/shutbox` text, by the subcommands' `grammar` (name -> its words);
    an empty text asks for help."""
    tokens = _TOKEN.findall(text)
    if not tokens:
        return Help()
    name, rest = tokens[0].lower(), tokens[1:]
    parser = grammar.get(name)
    if parser is None:
        raise UsageError("usage.unknown_command", command=tokens[0], allowed=", ".join(grammar))
    return parser(name, rest, mentions)


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
            raise UsageError("usage.duplicate", option=key)
        pairs[key.lower()] = value
    return Words(pairs, bare)


def _only(words: Words, *keys: str) -> None:
    """Refuse any `key=` other than `keys`."""
    for key in words.pairs:
        if key not in keys:
            raise UsageError("error.option.unknown", key=key, allowed=", ".join(keys))


def _one_bare_word(words: Words) -> str | None:
    """The one bare word (a board or preset), refusing a second one."""
    if len(words.bare) > 1:
        raise UsageError("usage.pairs_only", value=words.bare[-1])
    return words.bare[0] if words.bare else None


def opening(kind: Callable[[StartOptions], Command]) -> Parser:
    """`start [preset] [format] [stakes] key=value ...` (and `solo`), as the help spells it."""

    def read(name: str, tokens: list[str], mentions: Mentions) -> Command:
        words = split_words(tokens)
        bare = [word.lower() for word in words.bare]
        return kind(options_from_words(dict(words.pairs), bare))

    return read


def plain(kind: Callable[[], Command]) -> Parser:
    """A subcommand without options: join, leave, stop, balance, daily, challenge, review,
    help."""

    def read(name: str, tokens: list[str], mentions: Mentions) -> Command:
        if tokens:
            raise UsageError("usage.no_options", command=name, value=" ".join(tokens))
        return kind()

    return read


def leaderboard(name: str, tokens: list[str], mentions: Mentions) -> Command:
    """`leaderboard [board] [preset=P] [season=N] [page=N]` (or `board=B`)."""
    words = split_words(tokens)
    _only(words, "board", "preset", "season", "page")
    bare = _one_bare_word(words)
    if bare is not None and "board" in words.pairs:
        raise UsageError("usage.pairs_only", value=bare)
    board = bare or words.pairs.get("board", "wins")
    season, page = words.pairs.get("season"), words.pairs.get("page")
    return Leaderboard(
        board.lower(), words.pairs.get("preset"),
        None if season is None else parse_int(season, "season", 1, MAX_SEASON),
        0 if page is None else parse_int(page, "page", 1, MAX_PAGE) - 1,
    )  # fmt: skip


def season(name: str, tokens: list[str], mentions: Mentions) -> Command:
    """`season`, `season end`, `season end reset_chips=yes`."""
    words = split_words(tokens)
    _only(words, "reset_chips")
    if [word.lower() for word in words.bare] not in ([], ["end"]):
        raise UsageError("usage.pairs_only", value=words.bare[-1])
    reset = words.pairs.get("reset_chips")
    # Given at all (`reset_chips=` too), it is checked: an empty value is refused, not "no".
    return Season(bool(words.bare), None if reset is None else parse_bool(reset, "reset_chips"))


def web(name: str, tokens: list[str], mentions: Mentions) -> Command:
    """`web`, `web on`, `web off`, `web rotate` (the core refuses another word)."""
    words = split_words(tokens)
    _only(words)
    if len(words.bare) > 1:
        raise UsageError("usage.pairs_only", value=words.bare[-1])
    return Web(words.bare[0].lower() if words.bare else "")


def preset_word(kind: Callable[[str | None], Command]) -> Parser:
    """`rules [preset]`, `odds [preset]` (or `preset=P`)."""

    def read(name: str, tokens: list[str], mentions: Mentions) -> Command:
        words = split_words(tokens)
        _only(words, "preset")
        bare = _one_bare_word(words)
        if bare is not None and words.pairs:
            raise UsageError("usage.pairs_only", value=bare)
        preset = bare or words.pairs.get("preset")
        return kind(preset.lower() if preset else None)

    return read


def topic_word(kind: Callable[[str | None], Command]) -> Parser:
    """`help [command]`: the overview, or one command in detail."""

    def read(name: str, tokens: list[str], mentions: Mentions) -> Command:
        words = split_words(tokens)
        _only(words, "topic")
        bare = _one_bare_word(words)
        return kind(bare or words.pairs.get("topic"))

    return read


def about(kind: Callable[[str | None, str | None], Command]) -> Parser:
    """`stats [@user]`, `rank [@user]`: about the caller, or the member named."""

    def read(name: str, tokens: list[str], mentions: Mentions) -> Command:
        if not tokens:
            return kind(None, None)
        if mentions.one_word and len(tokens) > 1:
            raise UsageError("usage.no_options", command=f"{name} @user",
                             value=" ".join(tokens[1:]))  # fmt: skip
        member = mentions.read(" ".join(tokens))
        return kind(member.user, member.name)

    return read


def stats(name: str, tokens: list[str], mentions: Mentions) -> Command:
    """`stats [@user] [all]`: this season's numbers, or (`all`) those of all time."""
    all_time = bool(tokens) and tokens[-1].lower() == "all"
    found = about(Stats)(name, tokens[:-1] if all_time else tokens, mentions)
    assert isinstance(found, Stats)
    return Stats(found.user, found.name, all_time)


def configure(name: str, tokens: list[str], mentions: Mentions) -> Command:
    words = split_words(tokens)
    if words.bare:
        raise UsageError("usage.pairs_only", value=words.bare[0])
    return Configure(words.pairs)


def _member_and_amount(tokens: list[str], mentions: Mentions, usage: str) -> tuple[str, str]:
    """`@user N`: the words that name the member, and the amount's word."""
    if len(tokens) < 2 or (mentions.one_word and len(tokens) != 2):
        raise UsageError(usage)
    return " ".join(tokens[:-1]), tokens[-1]


def grant(name: str, tokens: list[str], mentions: Mentions) -> Command:
    """`grant @user N`: N may be negative to take chips."""
    member, amount = _member_and_amount(tokens, mentions, "usage.grant_usage")
    target = mentions.read(member)
    number = parse_int(amount, "amount", -MAX_AMOUNT, MAX_AMOUNT)
    return Grant(target.user, target.name or target.user, number)


def give(name: str, tokens: list[str], mentions: Mentions) -> Command:
    """`give @user N`: the core refuses N <= 0 or above the limit with its own line."""
    member, amount = _member_and_amount(tokens, mentions, "usage.give_usage")
    if not is_integer(amount):
        raise UsageError("usage.grant_amount", value=shown(amount))
    target = mentions.read(member)
    return Give(Recipient(target.user, target.name or target.user), int(amount))
