"""The Slack surface: `/shutbox` and the game buttons through bolt's AsyncApp (see app.py)."""

from adapters.slack.app import SlackBot, SlackConfig, build_app

__all__ = ["SlackBot", "SlackConfig", "build_app"]
