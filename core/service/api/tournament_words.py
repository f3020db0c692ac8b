"""`tournament [create|join|leave|start|standings|cancel]` in the typed grammar.

`tournament create Friday cup kind=swiss rounds=3 preset=classic format=rounds:1 table=3
fee=10 split=60/30/10 start=2026-12-05T20:00`: the bare words after `create` are the name.
"""

from __future__ import annotations

from core.game.numbers import MAX_DIGITS, parse_int
from core.service.api.text_commands import Mentions, UsageError, split_words
from core.service.features.tournaments.command import TournamentCommand

CREATE_KEYS = ("kind", "rounds", "preset", "format", "table", "fee", "split", "start")
NUMBERS = ("rounds", "table", "fee")
_ANY = 10**MAX_DIGITS - 1  # the settings say each number's own range


def tournament(name: str, tokens: list[str], mentions: Mentions) -> TournamentCommand:
    words = split_words(tokens)
    action = words.bare[0].lower() if words.bare else "standings"
    allowed = CREATE_KEYS if action == "create" else ()
    for key in words.pairs:
        if key not in allowed:
            raise UsageError("error.option.unknown", key=key, allowed=", ".join(allowed) or "—")
    if action != "create":
        if len(words.bare) > 1:
            raise UsageError("usage.pairs_only", value=words.bare[-1])
        return TournamentCommand(action)
    pairs = words.pairs
    numbers = {key: parse_int(pairs[key], key, 0, _ANY) for key in NUMBERS if key in pairs}
    return TournamentCommand(
        "create", " ".join(words.bare[1:]), pairs.get("kind"), numbers.get("rounds"),
        pairs.get("preset"), pairs.get("format"), numbers.get("table"), numbers.get("fee"),
        pairs.get("split"), pairs.get("start"),
    )  # fmt: skip
