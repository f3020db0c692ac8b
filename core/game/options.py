"""Every option a game is started with, in one table found by name: the rules laid over a
preset (`RULE_OPTIONS`, beside `Rules`) and the match's (`MATCH_OPTIONS`, beside the match
settings).

An option is one entry, declared next to the field it sets and found here by name; nothing
else lists the options. The rules builder, the `key=value` parser of Slack and the playground,
the server's settings, the help texts that list the options, the command line's `--options`
and the `{presets}` of the catalogs all read the table, and a test holds Discord's written-out
slash-command parameters to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from core.game.match import MATCH_OPTIONS
from core.game.option import Option
from core.game.rules import RULE_OPTIONS

OPTIONS: Mapping[str, Option] = MappingProxyType(
    {option.name: option for option in (*RULE_OPTIONS, *MATCH_OPTIONS)}
)
_BY_TYPED = {typed: option for option in OPTIONS.values() for typed in (option.name, option.typed)}


def find_option(key: str) -> Option | None:
    """The option a typed key names (`last-die` or `last_die`, in any case), if any."""
    return _BY_TYPED.get(key.lower())
