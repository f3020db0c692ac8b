"""The lobby message: who hosts, what is played and for what, who sits, and its buttons.

A newcomer decides here whether to join: each choice is named and explained in one line, and a
staked game says the most a player can lose.
"""

from __future__ import annotations

from core.game import settlement
from core.game.match import FormatKind, MatchConfig, StakesKind
from core.game.state import GameState
from core.service.model.buttons import ButtonId
from core.service.model.record import GameRecord
from core.service.model.views import DEADLINE, Button, ButtonStyle
from core.text.i18n import t
from core.text.render import describe_rules

ROW = 5  # buttons in a row
NAME_IN_LABEL = 32


def lobby_body(record: GameRecord) -> str:
    state, lang = record.state, record.lang
    lines = [t(lang, "lobby.host", host=state.host.name), *describe_config(state.config, lang)]
    lines += _bots_play_for_nothing(state, lang)
    if record.fair_dice is not None:
        lines.append(t(lang, "lobby.fair", commitment=record.fair_dice.commitment))
    names = ", ".join(_name(state, i) for i in range(len(state.seats)))
    lines.append(
        t(lang, "lobby.players", n=len(state.seats), max=state.config.seat_limit, names=names)
    )
    lines += _short_of_chips(record)
    lines.append(t(lang, "lobby.closes", deadline=DEADLINE))
    return "\n".join(lines)


def describe_config(config: MatchConfig, lang: str) -> list[str]:
    """Rules, format, stakes, timer and hints, then what the format and stakes mean."""
    fmt, stakes = config.format, config.stakes
    long_game = fmt.kind is FormatKind.LONG
    if fmt.kind is FormatKind.ROUNDS:
        format_text = t(lang, "lobby.rounds", n=fmt.rounds)
    else:
        format_text = t(lang, f"format.{fmt.kind.value}.title")
    stakes_text = {
        StakesKind.NONE: t(lang, "stakes.none.title"),
        StakesKind.POT: t(lang, _pot_key(long_game), ante=stakes.amount),
        StakesKind.CANOGA: t(lang, "lobby.canoga", k=stakes.amount),
    }[stakes.kind]
    rules = describe_rules(config.rules, lang, scoring=not long_game)
    lines = [
        t(lang, "lobby.rules", rules=rules),
        t(lang, "lobby.format", format=format_text, stakes=stakes_text, timer=config.timer),
    ]
    if not config.hints:
        lines.append(t(lang, "lobby.no_hints"))
    lines.append("  " + t(lang, f"format.{fmt.kind.value}.description"))
    if stakes.staked:
        explained = "stakes.pot.long" if long_game else f"stakes.{stakes.kind.value}.description"
        lines.append("  " + t(lang, explained))
        lines.append(most_loss(config, lang))
    return lines


def _pot_key(long_game: bool) -> str:
    """The long game is one long round: its pot is antes once for the match."""
    return "lobby.pot_match" if long_game else "lobby.pot"


def most_loss(config: MatchConfig, lang: str) -> str:
    """The most one player can lose: per round, and over a match of fixed rounds."""
    most = settlement.most_loss(config)
    if config.format.kind is FormatKind.LONG:
        return t(lang, "lobby.most_loss_match", amount=most.per_round)
    if most.match is not None and config.format.rounds > 1:
        return t(lang, "lobby.most_loss_rounds", amount=most.per_round, total=most.match)
    return t(lang, "lobby.most_loss", amount=most.per_round)


def _short_of_chips(record: GameRecord) -> list[str]:
    """A seated player whose balance can't cover the most they can lose is told how they
    play once it runs out: all in (SPEC 4)."""
    state, lang = record.state, record.lang
    if not state.config.stakes.staked:
        return []
    most = settlement.most_loss(state.config)
    at_stake = most.match if most.match is not None else most.per_round
    names = {seat.id: seat.name for seat in state.seats if not seat.bot}
    return [
        t(lang, "lobby.short", player=names[player], balance=balance, most=at_stake)
        for player, balance in record.short
        if player in names
    ]


def _bots_play_for_nothing(state: GameState, lang: str) -> list[str]:
    """Stakes with a bot seated: say that no chips move to or from a bot."""
    if state.config.stakes.staked and any(seat.bot for seat in state.seats):
        return [t(lang, "lobby.bots_no_chips")]
    return []


def _name(state: GameState, index: int) -> str:
    seat = state.seats[index]
    return f"🤖 {seat.name}" if seat.bot else seat.name


def lobby_rows(record: GameRecord) -> tuple[tuple[Button, ...], ...]:
    lang, gid, version = record.lang, record.game_id, record.version

    def button(verb: str, label: str, style: ButtonStyle) -> Button:
        return Button(str(ButtonId(verb, gid, version)), t(lang, label), style)

    main = (
        button("join", "ui.join", ButtonStyle.PRIMARY),
        button("leave", "ui.leave", ButtonStyle.SECONDARY),
        button("bot", "ui.add_bot", ButtonStyle.SECONDARY),
        button("begin", "ui.start", ButtonStyle.SUCCESS),
        button("cancel", "ui.cancel", ButtonStyle.DANGER),
    )
    return (main, *_host_rows(record))


def _host_rows(record: GameRecord) -> list[tuple[Button, ...]]:
    """The host's controls of each other seat: Remove (a bot or a player), and Make host (a
    player); five to a row, as Discord allows."""
    state, lang, gid, version = record.state, record.lang, record.game_id, record.version
    buttons = [
        Button(str(ButtonId("remove", gid, version, index)),
               t(lang, "ui.remove", name=_short(_name(state, index))), ButtonStyle.SECONDARY)
        for index in range(1, len(state.seats))
    ]  # fmt: skip
    buttons += [
        Button(str(ButtonId("host", gid, version, index)),
               t(lang, "ui.make_host", name=_short(seat.name)), ButtonStyle.SECONDARY)
        for index, seat in enumerate(state.seats)
        if index and not seat.bot
    ]  # fmt: skip
    return [tuple(buttons[i : i + ROW]) for i in range(0, len(buttons), ROW)]


def _short(name: str) -> str:
    """A name short enough for a button label (Discord allows 80 characters)."""
    return name if len(name) <= NAME_IN_LABEL else name[: NAME_IN_LABEL - 1] + "…"
