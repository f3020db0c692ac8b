"""Every `/shutbox` subcommand, in the order help lists them: the one table the rest is read from.

Like `RULE_OPTIONS` (and python-chess's `VARIANTS`), each entry says everything about one
subcommand (core/service/api/subcommand.py): its command value and handler (the manager's
`HANDLERS`), its words in the typed grammar (Slack, the playground), its typed options and how
they make the command (Discord's registered commands), whether it answers in the channel and
whether it belongs to a server, and its line in every help listing (`help.command.<name>`).
A new subcommand is one entry here, its handler, and its catalog texts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from core.game.match import FormatKind
from core.game.numbers import MAX_AMOUNT
from core.game.options import OPTIONS
from core.game.rules import RULE_OPTIONS
from core.game.tournament.values import MAX_FEE, MAX_SWISS_ROUNDS, TABLE_SIZES
from core.service.api import text_commands as words
from core.service.api.commands import (
    Audit,
    Balance,
    Challenge,
    Configure,
    Daily,
    Give,
    Grant,
    Help,
    Join,
    Leaderboard,
    Leave,
    Odds,
    Rank,
    Review,
    Rules,
    Season,
    Solo,
    Start,
    Stats,
    Stop,
    Web,
)  # fmt: skip
from core.service.api.ping_words import ping as ping_words
from core.service.api.subcommand import Entry as TableEntry
from core.service.api.subcommand import Param, Subcommand
from core.service.api.text_commands import Mentions, Parser
from core.service.api.tournament_words import tournament as tournament_words
from core.service.features import pings
from core.service.features.economy import BOARD_NAMES
from core.service.features.gifts import Recipient
from core.service.features.pings import SWITCHES, Ping
from core.service.features.seasons import MAX_SEASON
from core.service.features.tournaments.command import ACTIONS, KINDS, TournamentCommand
from core.service.features.tournaments.handler import tournament as tournament_handler
from core.service.model.context import Context
from core.service.model.services import Command, Services
from core.service.model.settings import SETTINGS, StartOptions
from core.service.model.views import Reply
from core.service.pipeline import game_commands as game
from core.service.pipeline import help_topics
from core.service.pipeline import server_commands as server
from core.service.pipeline.challenge_commands import challenge
from core.service.pipeline.runtime import GameRuntime
from core.service.pipeline.web_commands import web
from core.text.i18n import t

_RULES = tuple(Param.of(option) for option in RULE_OPTIONS)
_MATCH = ("format", "rounds", "timer", "hints", "fair")  # a solo game carries no stakes
_OPENING = (*_RULES, *(Param.of(OPTIONS[name]) for name in _MATCH))
_PRESET = Param.of(OPTIONS["preset"])
_PLAYER = Param("player", Recipient)
_REQUIRED_PLAYER = Param("player", Recipient, required=True)


def start_options(given: Mapping[str, Any]) -> StartOptions:
    """The options of `start` and `solo` from typed ones: `rounds` (a number) joins `format`."""
    values = dict(given)
    rounds, kind = values.pop("rounds", None), values.pop("format", None)
    if rounds is not None:
        kind = f"{kind or FormatKind.ROUNDS.value}:{rounds}"
    return StartOptions(format=kind, **values)


def setting_text(value: object) -> str:
    """A typed `config` value as the settings read it: `yes`/`no`, digits, or the word."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


# The rules and the match format are typed as in the chat (`preset=sailors format=rounds:3`):
# a picker for each would take a tenth of the size Discord allows the whole `/shutbox` command.
_TOURNAMENT = (
    Param("action", str, values=ACTIONS), Param("name", str),
    Param("kind", str, values=KINDS), Param("rounds", int, bounds=(1, MAX_SWISS_ROUNDS)),
    Param("preset", str), Param("format", str),
    Param("table", int, values=TABLE_SIZES), Param("fee", int, bounds=(0, MAX_FEE)),
    Param("split", str), Param("start", str),
)  # fmt: skip


def _tournament_command(given: Mapping[str, Any]) -> TournamentCommand:
    """Discord's typed options, each a setting of `create` as the chat writes it."""
    values = dict(given)
    return TournamentCommand(values.pop("action", "standings"), **values)


def _member(given: Mapping[str, Any]) -> tuple[str | None, str | None]:
    player = given.get("player")
    return (None, None) if player is None else (player.id, player.name)


# An entry of the table, as its readers see it. The command class differs from entry to entry:
# mypy checks each entry's handler and `build` against its own where it is made, in `_ENTRIES`
# (without a declared type, which would let mypy take the class from the declaration instead).
Entry: TypeAlias = TableEntry[GameRuntime]


async def _help(services: Services, ctx: Context, command: Help) -> Reply:
    return Reply(private=help_text(await services.private_lang(ctx), command.topic))


_ENTRIES = (
    Subcommand("start", Start, game.start, words.opening(Start), (*_OPENING,
               Param.of(OPTIONS["stakes"])), lambda v: Start(start_options(v)), public=True),
    Subcommand("solo", Solo, game.solo, words.opening(Solo), _OPENING,
               lambda v: Solo(start_options(v)), public=True),
    Subcommand("join", Join, game.join),
    Subcommand("leave", Leave, game.leave),
    Subcommand("stop", Stop, game.stop),
    Subcommand("rules", Rules, server.rules, words.preset_word(Rules), (_PRESET,),
               lambda v: Rules(v.get("preset"))),
    Subcommand("odds", Odds, server.odds, words.preset_word(Odds), (_PRESET,),
               lambda v: Odds(v.get("preset"))),
    Subcommand("balance", Balance, server.balance, guild=True),
    Subcommand("daily", Daily, server.daily, guild=True),
    Subcommand("leaderboard", Leaderboard, server.leaderboard, words.leaderboard,
               (Param("board", str, values=BOARD_NAMES), _PRESET,
                Param("season", int, bounds=(1, MAX_SEASON))),
               lambda v: Leaderboard(v.get("board", "wins"), v.get("preset"), v.get("season")),
               public=True, guild=True),
    Subcommand("stats", Stats, server.stats, words.stats,
               (_PLAYER, Param("all_seasons", bool)),
               lambda v: Stats(*_member(v), bool(v.get("all_seasons"))), guild=True),
    Subcommand("rank", Rank, server.rank, words.about(Rank), (_PLAYER,),
               lambda v: Rank(*_member(v)), public=True, guild=True),
    Subcommand("season", Season, server.season, words.season,
               (Param("action", str, values=("end",)), Param("reset_chips", bool)),
               lambda v: Season(v.get("action") == "end", v.get("reset_chips")),
               public=True, guild=True),
    Subcommand("challenge", Challenge, challenge, guild=True),
    Subcommand("review", Review, game.review_last, guild=True),
    Subcommand("give", Give, server.give, words.give,
               (_REQUIRED_PLAYER, Param("amount", int, required=True)),
               lambda v: Give(v["player"], v["amount"]), guild=True),
    Subcommand("web", Web, web, words.web,
               (Param("switch", str, values=("on", "off", "rotate")),),
               lambda v: Web(v.get("switch", "")), guild=True),
    Subcommand("config", Configure, server.configure, words.configure,
               tuple(Param.of(option) for option in SETTINGS.values()),
               lambda v: Configure({k: setting_text(x) for k, x in v.items()}), guild=True),
    Subcommand("grant", Grant, server.grant, words.grant,
               (_REQUIRED_PLAYER,
                Param("amount", int, required=True, bounds=(-MAX_AMOUNT, MAX_AMOUNT))),
               lambda v: Grant(v["player"].id, v["player"].name, v["amount"],
                               v["player"].standing), guild=True),
    Subcommand("audit", Audit, server.audit_log, guild=True),
    Subcommand("ping", Ping, pings.ping, ping_words, (Param("calls", str, values=SWITCHES),),
               lambda v: Ping(v.get("calls", "")), guild=True),
    # Tournaments (core/service/features/tournaments/): one entry, every action.
    Subcommand("tournament", TournamentCommand, tournament_handler, tournament_words,
               _TOURNAMENT, _tournament_command, guild=True),
    Subcommand("help", Help, _help, words.topic_word(Help), (Param("topic", str),),
               lambda v: Help(v.get("topic"))),
)  # fmt: skip
SUBCOMMANDS: tuple[Entry, ...] = _ENTRIES

BY_NAME: dict[str, Entry] = {entry.name: entry for entry in SUBCOMMANDS}
GRAMMAR: dict[str, Parser] = {entry.name: entry.parser for entry in SUBCOMMANDS}
NAMES = tuple(BY_NAME)


def command_lines(lang: str) -> list[str]:
    """Every subcommand's help line (its words, then what it does), in the table's order."""
    return [t(lang, entry.help_key, boards="|".join(BOARD_NAMES)) for entry in SUBCOMMANDS]


def help_text(lang: str, topic: str | None = None) -> str:
    """`/shutbox help`: the overview (one chat message), or `help <command>` in detail."""
    if not topic:
        return help_topics.overview(lang)
    name = help_topics.topic_name(topic, NAMES)
    return help_topics.detail(lang, name, dict(zip(NAMES, command_lines(lang), strict=True)))


def parse(text: str, mentions: Mentions) -> Command:
    """The command in a typed `/shutbox` text (Slack's slash command, the playground's lines)."""
    return words.read(text, mentions, GRAMMAR)
