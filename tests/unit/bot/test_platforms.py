"""The platform registry: each entry's settings turn it on, and the command line and the settings
are built from it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot import platforms
from bot.cli import COMMANDS, build_parser
from bot.platforms import PLATFORMS, enabled_platforms, titles
from bot.settings import SECTIONS, load_settings

PLATFORM_VARIABLES = (
    "DISCORD_TOKEN", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_CLIENT_ID",
    "SLACK_CLIENT_SECRET",
)  # fmt: skip


@pytest.fixture(autouse=True)
def no_platform_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run where no `.env` file and no variable turns a platform on."""
    monkeypatch.chdir(tmp_path)
    for name in PLATFORM_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_every_platform_has_its_subcommand_and_its_settings_section() -> None:
    assert {"discord", "slack"} <= set(PLATFORMS)
    for name, platform in PLATFORMS.items():
        assert name in COMMANDS and platform.section in SECTIONS
        build_parser().parse_args([name])  # argparse exits on an unknown command


def test_no_tokens_turn_no_platform_on() -> None:
    assert enabled_platforms(load_settings()) == {}


@pytest.mark.parametrize(
    ("variables", "enabled"),
    [
        ({"DISCORD_TOKEN": "t"}, ["discord"]),
        ({"SLACK_BOT_TOKEN": "xoxb", "SLACK_SIGNING_SECRET": "s"}, ["slack"]),
        ({"SLACK_BOT_TOKEN": "xoxb"}, []),  # a bot token alone cannot check Slack's requests
        ({"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "c"}, ["slack"]),
        ({"DISCORD_TOKEN": "t", "SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "c"},
         ["discord", "slack"]),
    ],
)  # fmt: skip
def test_each_platforms_settings_turn_it_on(
    variables: dict[str, str], enabled: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert list(enabled_platforms(load_settings())) == enabled


@pytest.mark.parametrize(
    ("titles_", "sentence"),
    [(["Discord"], "Discord"), (["Discord", "Slack"], "Discord or Slack"),
     (["Discord", "Slack", "Teams"], "Discord, Slack or Teams")],
)  # fmt: skip
def test_the_platforms_are_named_as_in_a_sentence(
    titles_: list[str], sentence: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `shutbox run` says it finds none: "No Discord or Slack tokens are set"."""
    some = next(iter(PLATFORMS.values()))
    entries = {title.lower(): replace(some, title=title) for title in titles_}
    monkeypatch.setattr(platforms, "PLATFORMS", entries)
    assert titles("or") == sentence
