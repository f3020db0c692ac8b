"""`/shutbox <subcommand> ...` as Slack sends it: the shared grammar, with Slack's mentions.

The words are read by `core/service/api/text_commands.py`; all Slack adds is how a member is
written (`<@U123|ann>` or `<@U123>`). A mistake raises `UsageError` (a `usage.*` catalog key),
which the handler shows privately in the workspace's language; nothing changes.
"""

from __future__ import annotations

import re

from core.service.api.commands import Command
from core.service.api.text_commands import Mention, UsageError
from core.service.pipeline import subcommands

__all__ = ["MENTIONS", "Mention", "SlackMentions", "UsageError", "parse"]

_MENTION = re.compile(r"<@([UW][A-Z0-9]+)(?:\|([^>]*))?>")


class SlackMentions:
    """A Slack user named in the text: `<@U123|ann>` or `<@U123>`, always one word."""

    one_word = True

    def read(self, text: str) -> Mention:
        found = _MENTION.fullmatch(text)
        if found is None:
            raise UsageError("slack.mention", value=text)
        return Mention(found.group(1), found.group(2) or None)


MENTIONS = SlackMentions()


def parse(text: str) -> Command:
    """The command in a `/shutbox` text; an empty text asks for help."""
    return subcommands.parse(text, MENTIONS)
