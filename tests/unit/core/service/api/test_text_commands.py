"""The one text grammar of every text surface, with the way a platform writes a member passed
in (Slack's own mentions are tested in tests/unit/adapters/slack/test_commands.py)."""

from __future__ import annotations

import pytest

from core.game.errors import ShutboxError
from core.game.match import MatchFormat
from core.service.api.commands import Give, Grant, Leaderboard, Rank, Stats
from core.service.api.text_commands import Mention, UsageError
from core.service.features.gifts import Recipient
from core.service.pipeline.subcommands import NAMES, parse


class PlainNames:
    """A member written as their plain name, in as many words as it takes."""

    one_word = False

    def read(self, text: str) -> Mention:
        return Mention(text.lower().replace(" ", "-"), text)


class OneWordIds:
    """A member written as one word: their id."""

    one_word = True

    def read(self, text: str) -> Mention:
        if not text.startswith("@"):
            raise UsageError("slack.mention", value=text)
        return Mention(text[1:])


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("grant Ann Lee 50", Grant("ann-lee", "Ann Lee", 50)),
        ("give Ann Lee 5", Give(Recipient("ann-lee", "Ann Lee"), 5)),
        ("stats Ann Lee", Stats("ann-lee", "Ann Lee")),
        ("rank bob", Rank("bob", "bob")),
    ],
)
def test_a_name_of_several_words_is_one_member(text: str, command: object) -> None:
    """Where a member is a plain name, it is all the words before the amount (or all left)."""
    assert parse(text, PlainNames()) == command


def test_a_one_word_member_leaves_no_word_over() -> None:
    """Where a member is one word, a second one is refused rather than read as a name."""
    assert parse("grant @u1 5", OneWordIds()) == Grant("u1", "u1", 5)
    with pytest.raises(UsageError) as refused:
        parse("grant @u1 @u2 5", OneWordIds())
    assert refused.value.key == "usage.grant_usage"
    with pytest.raises(UsageError) as refused:
        parse("stats @u1 @u2", OneWordIds())
    assert refused.value.params == {"command": "stats @user", "value": "@u2"}


def test_a_leaderboard_page_is_typed_from_one() -> None:
    """`page=2` is the second page (the command counts from 0, as the buttons do)."""
    assert parse("leaderboard chips page=2", PlainNames()) == Leaderboard("chips", page=1)


def test_every_surface_knows_the_same_subcommands() -> None:
    """The subcommand table, not the surface, says what the subcommands are."""
    assert "start" in NAMES and "give" in NAMES and "bot" not in NAMES


@pytest.mark.parametrize(
    ("text", "preset", "fmt", "stakes"),
    [
        ("start rounds:3", None, "rounds:3", None),
        ("start to-45", None, "to-45", None),
        ("start sailors elimination pot:5", "sailors", "elimination", "pot:5"),
        ("solo first-shut kids", "kids", "first-shut", None),
        ("start long pot:2", None, "long", "pot:2"),
        ("start canoga:2 rounds=3", None, "rounds:3", "canoga:2"),
    ],
)
def test_start_reads_the_helps_spelling(
    text: str, preset: str | None, fmt: str, stakes: str | None
) -> None:
    """`start [preset] [format] [stakes]` as help shows it: each bare word finds its option."""
    command = parse(text, PlainNames())
    options = command.options  # type: ignore[attr-defined]
    assert (options.preset, options.stakes) == (preset, stakes)
    assert MatchFormat.parse(options.format) == MatchFormat.parse(fmt)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("start fish", "error.option.bare"),
        ("start 5", "error.option.bare_number"),
        ("start ²", "error.option.bare"),  # a digit to str.isdigit(), no number to anyone
        ("start classic hard", "error.option.twice"),
        ("start to-45 format=elimination", "error.option.twice"),
        ("start rounds:0", "error.option.rounds"),
        ("start pot:x", "error.option.range"),
    ],
)
def test_a_bare_word_that_fits_nothing_says_what_would(text: str, key: str) -> None:
    with pytest.raises(ShutboxError) as refused:
        parse(text, PlainNames())
    assert refused.value.key == key
