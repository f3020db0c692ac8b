"""`/shutbox help`: an overview that fits one Discord message in every language, and
`help <command>` with that command's line; a topic may be written in any catalog's name."""

from __future__ import annotations

import pytest

from adapters.discord.commands import command_names
from core.service.api.commands import Help
from core.service.api.text_commands import Mention, UsageError
from core.service.pipeline.help_topics import GROUPS
from core.service.pipeline.subcommands import BY_NAME, NAMES, command_lines, help_text, parse
from core.text.i18n import LANGS, t

DISCORD_MESSAGE_LIMIT = 2000


class NoMentions:
    one_word = True

    def read(self, text: str) -> Mention:
        raise AssertionError(text)


def test_every_subcommand_but_help_is_in_one_group() -> None:
    grouped = [name for _, names in GROUPS for name in names]
    assert sorted(grouped) == sorted(name for name in NAMES if name != "help")


@pytest.mark.parametrize("lang", LANGS)
def test_the_overview_fits_one_discord_message_with_the_clients_names(lang: str) -> None:
    """The overview names every subcommand once; on Discord the names a Danish or Norwegian
    client shows are added, and the whole still fits one message."""
    overview = help_text(lang)
    for name in NAMES:
        assert overview.count(f"`{name}`") == (0 if name == "help" else 1), name
    assert "/shutbox help" in overview
    names = command_names(lang if lang != "en" else None)
    on_discord = f"{overview}\n{t(lang, 'discord.help.names', names=names)}" if names else overview
    assert len(on_discord) <= DISCORD_MESSAGE_LIMIT


@pytest.mark.parametrize("lang", LANGS)
def test_each_topic_fits_one_message_and_gives_its_line(lang: str) -> None:
    lines = dict(zip(NAMES, command_lines(lang), strict=True))
    for name in NAMES:
        shown = help_text(lang, name)
        assert shown.startswith(f"/shutbox {lines[name]}")
        assert len(shown) <= DISCORD_MESSAGE_LIMIT, name
    assert t(lang, "help.footer") in help_text(lang, "start")
    assert t(lang, "help.footer") not in help_text(lang, "balance")


def test_a_topic_may_be_the_name_a_danish_client_shows() -> None:
    assert help_text("da", "deltag") == help_text("da", "join")
    assert help_text("en", "/shutbox Tournament") == help_text("en", "tournament")


def test_an_unknown_topic_is_one_line_naming_the_commands() -> None:
    with pytest.raises(UsageError) as raised:
        help_text("en", "fly")
    assert raised.value.key == "usage.help_topic"
    assert "tournament" in t("en", raised.value.key, **raised.value.params)


def test_help_takes_one_topic_in_the_typed_grammar_and_on_discord() -> None:
    assert parse("help", NoMentions()) == parse("", NoMentions()) == Help()
    assert parse("help start", NoMentions()) == parse("help topic=start", NoMentions())
    assert parse("help start", NoMentions()) == Help("start")
    with pytest.raises(UsageError):
        parse("help start solo", NoMentions())
    assert BY_NAME["help"].from_params({"topic": "odds"}) == Help("odds")
