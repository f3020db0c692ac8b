"""Reading `/shutbox` text: subcommands, key=value options, mentions and numbers (SPEC 6)."""

from __future__ import annotations

import pytest

from adapters.slack.commands import UsageError, parse
from core.game.errors import InvalidOption, ShutboxError
from core.service.api.commands import (
    Audit,
    Configure,
    Give,
    Grant,
    Help,
    Join,
    Leaderboard,
    Odds,
    Rules,
    Season,
    Solo,
    Start,
    Stats,
    Web,
)
from core.service.features.gifts import Recipient
from core.service.model.settings import StartOptions
from core.service.pipeline.subcommands import SUBCOMMANDS
from core.text.i18n import t


def test_every_subcommand_of_the_table_is_typed_on_slack() -> None:
    """Each subcommand's name is a command on Slack: alone it is that command, or (give,
    grant) the line that shows its words; never an unknown command."""
    for entry in SUBCOMMANDS:
        try:
            assert type(parse(entry.name)) is entry.command
        except UsageError as error:
            assert error.key != "usage.unknown_command"


def test_start_reads_a_preset_word_and_options() -> None:
    """`start sailors rounds=5 stakes=pot:5 timer=90` becomes typed start options."""
    command = parse("start Sailors rounds=5 stakes=pot:5 timer=90 hints=no")
    assert command == Start(StartOptions(preset="sailors", format="rounds:5", stakes="pot:5",
                                         timer=90, hints=False))  # fmt: skip


def test_solo_is_an_open_command_too() -> None:
    assert parse("solo preset=hard") == Solo(StartOptions(preset="hard"))


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("", Help()),
        ("  JOIN ", Join()),
        ("leaderboard", Leaderboard("wins")),
        ("leaderboard Chips preset=sailors", Leaderboard("chips", "sailors")),
        ("leaderboard board=best", Leaderboard("best")),
        ("leaderboard wins season=3", Leaderboard("wins", None, 3)),
        ("season", Season()),
        ("audit", Audit()),
        ("season END", Season(end=True)),
        ("season end reset_chips=yes", Season(end=True, reset_chips=True)),
        ("web", Web()),
        ("web ON", Web("on")),
        ("web rotate", Web("rotate")),
        ("stats", Stats()),
        ("stats <@U123|ann>", Stats("U123", "ann")),
        ("stats <@W9ABC>", Stats("W9ABC")),
        ("rules", Rules()),
        ("odds Kids", Odds("kids")),
        ("odds preset=ten", Odds("ten")),
        ("config", Configure({})),
        ("config lang=nb Style=text", Configure({"lang": "nb", "style": "text"})),
        ("grant <@U1|bob lee> -20", Grant("U1", "bob lee", -20)),
        ("grant <@U1> +5", Grant("U1", "U1", 5)),
    ],
)
def test_each_subcommand_is_read(text: str, command: object) -> None:
    """Each subcommand's words become its command."""
    assert parse(text) == command


@pytest.mark.parametrize(
    ("text", "key", "params"),
    [
        ("shuffle", "usage.unknown_command", {"command": "shuffle"}),
        ("start classic hard", "error.option.twice", {"first": "classic", "second": "hard"}),
        ("start hard preset=classic", "error.option.twice", {"first": "hard", "second": "classic"}),
        ("start preset=", "error.option.empty", {"option": "preset"}),
        ("start rounds=3 format=to-45", "error.option.conflict", {"first": "rounds"}),
        ("start tiles=9 tiles=10", "usage.duplicate", {"option": "tiles"}),
        ("start colour=red", "error.option.unknown", {"key": "colour"}),
        ("start tiles=nine", "error.option.range", {"option": "tiles", "value": "nine"}),
        ("start timer=²", "error.option.range", {"option": "timer", "min": 10, "max": 3600}),
        ("start tiles=²", "error.option.range", {"option": "tiles", "min": 9, "max": 12}),
        ("start timer=" + "5" * 5000, "error.option.range", {"value": "5" * 20 + "…"}),
        ("start hints=maybe", "error.config.value", {"key": "hints", "value": "maybe"}),
        ("balance please", "usage.no_options", {"command": "balance", "value": "please"}),
        ("stats ann", "slack.mention", {"value": "ann"}),
        ("stats <@U1> <@U2>", "usage.no_options", {"value": "<@U2>"}),
        ("grant", "usage.grant_usage", {}),
        ("grant <@U1> 5 chips", "usage.grant_usage", {}),
        ("grant @bob 5", "slack.mention", {"value": "@bob"}),
        ("grant <@U1> five", "error.option.range", {"option": "amount", "value": "five"}),
        (
            "grant <@U1> 99999999999999999999999",
            "error.option.range",
            {"option": "amount", "min": -1_000_000, "max": 1_000_000},
        ),
        ("grant <@U1> 9223372036854775000", "error.option.range", {"option": "amount"}),
        ("grant <@U1> ²", "error.option.range", {"option": "amount"}),
        ("leaderboard wins best", "usage.pairs_only", {"value": "best"}),
        ("leaderboard rules=any", "error.option.unknown", {"key": "rules"}),
        ("rules classic hard", "usage.pairs_only", {"value": "hard"}),
        ("config lang", "usage.pairs_only", {"value": "lang"}),
    ],
)
def test_bad_text_says_what_is_wrong(text: str, key: str, params: dict[str, str]) -> None:
    """Every mistake raises a catalog key with the offending word as a parameter."""
    with pytest.raises(ShutboxError) as caught:
        parse(text)
    assert caught.value.key == key
    assert params.items() <= caught.value.params.items()


def test_usage_errors_are_user_errors() -> None:
    """The handler can treat parse errors like any manager error."""
    assert issubclass(UsageError, ShutboxError) and issubclass(InvalidOption, ShutboxError)


def test_give_reads_a_mention_and_a_whole_number() -> None:
    """`give @bob 20` names the receiver and the amount; the core judges the amount."""
    assert parse("give <@UBOB|bob> 20") == Give(Recipient("UBOB", "bob"), 20)
    assert parse("give <@UBOB> -3") == Give(Recipient("UBOB", "UBOB"), -3)


@pytest.mark.parametrize(("text", "key"), [("give 5", "usage.give_usage"),
                                           ("give <@UBOB> x", "usage.grant_amount")])  # fmt: skip
def test_give_without_a_mention_or_number_is_refused(text: str, key: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse(text)
    assert caught.value.key == key


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "season stop",
            "Options are written key=value (e.g. `rounds=3 stakes=pot:5`), not “stop”. "
            "`/shutbox help` lists them.",
        ),
        (
            "season end reset_chips=maybe",
            "“maybe” is not a valid value for reset_chips. Allowed: yes, no.",
        ),
        (
            "leaderboard wins season=0",
            "The option season must be a whole number from 1 to 1,000,000, not “0”.",
        ),
    ],
)
def test_a_bad_season_word_is_one_line(text: str, line: str) -> None:
    with pytest.raises(ShutboxError) as refused:
        parse(text)
    assert t("en", refused.value.key, **refused.value.params) == line
