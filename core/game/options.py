"""Every option a game is started with, in one table found by name: the rules laid over a
preset (`RULE_OPTIONS`, beside `Rules`) and the match's (`MATCH_OPTIONS`, beside the match
settings); and every rule set the rule options make.

An option is one entry, declared next to the field it sets and found here by name; nothing
else lists the options. The rules builder, the `key=value` parser of Slack and the playground,
the server's settings, the help texts that list the options, the command line's `--options`
and the `{presets}` of the catalogs all read the table, and a test holds Discord's written-out
slash-command parameters to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from types import MappingProxyType
from typing import Any

from core.game.errors import InvalidRules
from core.game.match import MATCH_OPTIONS
from core.game.option import Option
from core.game.rules import RULE_OPTIONS, Rules

OPTIONS: Mapping[str, Option] = MappingProxyType(
    {option.name: option for option in (*RULE_OPTIONS, *MATCH_OPTIONS)}
)
_BY_TYPED = {typed: option for option in OPTIONS.values() for typed in (option.name, option.typed)}


def find_option(key: str) -> Option | None:
    """The option a typed key names (`last-die` or `last_die`, in any case), if any."""
    return _BY_TYPED.get(key.lower())


def every_rule_set() -> tuple[Rules, ...]:
    """Every valid rule set, from the option table: what per-rules keys (boards, stats) a server
    can hold is a known, finite set (a few dozen), so nothing has to scan for them."""
    table = [option for option in RULE_OPTIONS if option.name != "preset"]
    fields = [option.field or option.name for option in table]
    values = [(False, True) if option.kind is bool else option.values for option in table]
    found: list[Rules] = []
    for combination in product(*values):
        try:
            chosen: dict[str, Any] = dict(zip(fields, combination, strict=True))
            found.append(Rules(**chosen))
        except InvalidRules:
            continue
    return tuple(found)
