"""`ping`, `ping on`, `ping off` in the typed grammar."""

from __future__ import annotations

from core.service.api.text_commands import Mentions, UsageError, split_words
from core.service.features.pings import Ping


def ping(name: str, tokens: list[str], mentions: Mentions) -> Ping:
    words = split_words(tokens)
    for key in words.pairs:
        raise UsageError("error.option.unknown", key=key, allowed="—")
    if len(words.bare) > 1:
        raise UsageError("usage.pairs_only", value=words.bare[-1])
    return Ping(words.bare[0].lower() if words.bare else "")
