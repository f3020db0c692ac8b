"""The one text grammar of every text surface, with the way a platform writes a member passed
in (Slack's own mentions are tested in tests/unit/adapters/slack/test_commands.py)."""

from __future__ import annotations

import pytest

from core.service.commands import Give, Grant, Leaderboard, Rank, Stats
from core.service.gifts import Recipient
from core.service.text_commands import SUBCOMMANDS, Mention, UsageError, parse


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
    assert refused.value.key == "slack.grant_usage"
    with pytest.raises(UsageError) as refused:
        parse("stats @u1 @u2", OneWordIds())
    assert refused.value.params == {"command": "stats @user", "value": "@u2"}


def test_a_leaderboard_page_is_typed_from_one() -> None:
    """`page=2` is the second page (the command counts from 0, as the buttons do)."""
    assert parse("leaderboard chips page=2", PlainNames()) == Leaderboard("chips", page=1)


def test_every_surface_knows_the_same_subcommands() -> None:
    """The grammar, not the surface, says what the subcommands are."""
    assert "start" in SUBCOMMANDS and "give" in SUBCOMMANDS and "bot" not in SUBCOMMANDS
