"""deploy/slack-manifest.yaml matches the code: command, scopes, request URLs (SPEC 8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adapters.slack.app import BOT_SCOPES, SLASH_COMMAND
from adapters.slack.server import EVENTS_PATH

yaml = pytest.importorskip("yaml")
MANIFEST = Path(__file__).resolve().parents[4] / "deploy" / "slack-manifest.yaml"


@pytest.fixture(scope="module")
def manifest() -> dict[str, Any]:
    data = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_slash_command_is_the_one_the_app_listens_to(manifest: dict[str, Any]) -> None:
    """/shutbox, sent to /slack/events, with mentions escaped as <@U123|name>."""
    (command,) = manifest["features"]["slash_commands"]
    assert command["command"] == SLASH_COMMAND
    assert command["url"].endswith(EVENTS_PATH)
    assert command["should_escape"] is True


def test_the_bot_scopes_are_the_ones_the_install_flow_asks_for(manifest: dict[str, Any]) -> None:
    assert tuple(manifest["oauth_config"]["scopes"]["bot"]) == BOT_SCOPES


def test_buttons_and_the_install_redirect_reach_the_app(manifest: dict[str, Any]) -> None:
    """Interactivity posts to /slack/events; the OAuth redirect is bolt's /slack/oauth_redirect."""
    settings = manifest["settings"]
    assert settings["interactivity"] == {
        "is_enabled": True,
        "request_url": manifest["features"]["slash_commands"][0]["url"],
    }
    assert settings["socket_mode_enabled"] is False
    (redirect,) = manifest["oauth_config"]["redirect_urls"]
    assert redirect.endswith("/slack/oauth_redirect")
