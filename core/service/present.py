"""The views a surface shows: the game message, event notices, round and match summaries."""

from __future__ import annotations

from collections.abc import Sequence

from core.game import flow
from core.game.match import FormatKind, MatchConfig, StakesKind
from core.game.moves import options
from core.game.state import Ending, GameState, Phase
from core.service import rematch, reviews, turns
from core.service.buttons import ButtonId
from core.service.record import GameRecord
from core.service.turns import Turns
from core.service.views import DEADLINE, Button, ButtonStyle, GameView
from core.text.i18n import join_list, t
from core.text.render import Style, describe_rules, render_board, render_dice, render_move

MOVES_PER_PAGE = 20  # four rows of five buttons; the fifth row holds Hint and More
ROW = 5
MAX_NOTICES = 14


def style_of(record: GameRecord) -> Style:
    return "text" if record.style == "text" else "emoji"


def board_text(state: GameState, style: Style) -> str:
    board = render_board(state.config.rules, state.board, style)
    return f"`{board}`" if style == "text" else board


def game_view(record: GameRecord, notices: Sequence[str] = (), page: int = 0) -> GameView:
    """The one game message: lobby, turn in progress, or final result."""
    state, lang = record.state, record.lang
    if state.phase is Phase.LOBBY:
        title, body, rows = t(lang, "lobby.title"), _lobby_body(record), _lobby_rows(record)
    elif state.over:
        title, body = t(lang, "game.over_title"), _over_body(record, notices)
        rows = _over_rows(record)
    else:
        title, body, rows = (
            _round_title(state, lang),
            _turn_body(record, notices),
            _turn_rows(record, page),
        )
    return GameView(
        channel=record.channel, game_id=record.game_id, version=state.version, title=title,
        body=body, rows=rows, deadline=record.deadline, message=record.message, over=state.over,
    )  # fmt: skip


def _over_rows(record: GameRecord) -> tuple[tuple[Button, ...], ...]:
    """A finished match's message keeps Rematch and Review; a stopped one has no buttons."""
    if not rematch.finished(record):
        return ()
    review = reviews.review_button(record)
    return ((rematch.rematch_button(record), *([review] if review else [])),)


def describe_config(config: MatchConfig, lang: str) -> list[str]:
    """Rules, format, stakes and timer as the lobby and `/shutbox rules` show them."""
    fmt, stakes = config.format, config.stakes
    if fmt.kind is FormatKind.ROUNDS:
        format_text = t(lang, "lobby.rounds", n=fmt.rounds)
    else:
        format_text = t(lang, f"format.{fmt.kind.value}.title")
    stakes_text = {
        StakesKind.NONE: t(lang, "stakes.none.title"),
        StakesKind.POT: t(lang, "lobby.pot", ante=stakes.amount),
        StakesKind.CANOGA: t(lang, "lobby.canoga", k=stakes.amount),
    }[stakes.kind]
    return [
        t(lang, "lobby.rules", rules=describe_rules(config.rules, lang)),
        t(lang, "lobby.format", format=format_text, stakes=stakes_text, timer=config.timer),
    ]


def _lobby_body(record: GameRecord) -> str:
    state, lang = record.state, record.lang
    lines = [t(lang, "lobby.host", host=state.host.name), *describe_config(state.config, lang)]
    if record.fair_dice is not None:
        lines.append(t(lang, "lobby.fair", commitment=record.fair_dice.commitment))
    names = ", ".join(display_name(state, i) for i in range(len(state.seats)))
    lines.append(
        t(lang, "lobby.players", n=len(state.seats), max=state.config.seat_limit, names=names)
    )
    lines.append(t(lang, "lobby.closes", deadline=DEADLINE))
    return "\n".join(lines)


def _lobby_rows(record: GameRecord) -> tuple[tuple[Button, ...], ...]:
    lang, gid, version = record.lang, record.game_id, record.version

    def button(verb: str, label: str, style: ButtonStyle) -> Button:
        return Button(str(ButtonId(verb, gid, version)), t(lang, label), style)

    return (
        (
            button("join", "ui.join", ButtonStyle.PRIMARY),
            button("leave", "ui.leave", ButtonStyle.SECONDARY),
            button("bot", "ui.add_bot", ButtonStyle.SECONDARY),
            button("begin", "ui.start", ButtonStyle.SUCCESS),
            button("cancel", "ui.cancel", ButtonStyle.DANGER),
        ),
    )


def display_name(state: GameState, index: int) -> str:
    seat = state.seats[index]
    return f"🤖 {seat.name}" if seat.bot else seat.name


def _round_title(state: GameState, lang: str) -> str:
    fmt = state.config.format
    if fmt.kind is FormatKind.LONG:
        return t(lang, "format.long.title")
    if fmt.kind is FormatKind.ROUNDS:
        return t(lang, "board.round_of", n=state.round, total=fmt.rounds)
    return t(lang, "board.round", n=state.round)


def _turn_body(record: GameRecord, notices: Sequence[str]) -> str:
    state, lang, style = record.state, record.lang, style_of(record)
    lines = [board_text(state, style)]
    lines += list(notices)[-MAX_NOTICES:]
    if state.config.stakes.kind is StakesKind.POT:
        lines.append(t(lang, "game.pot", pot=record.pot.total))
    seat = state.to_act
    assert seat is not None
    if state.phase is Phase.CHOOSE:
        dice = render_dice(state.dice, style)
        key = "game.choose_last_die" if state.ends_turn else "game.choose"
        lines.append(t(lang, key, player=seat.name, dice=dice, deadline=DEADLINE))
    else:
        key = "game.open_turn" if flow.opening(state) else "game.roll"
        lines.append(t(lang, key, player=seat.name, deadline=DEADLINE))
    lines += scores_lines(state, lang, record.turns, style_of(record))
    if record.fair_dice is not None:
        # Shown on every turn, so a solo game (which has no lobby) shows it before any roll.
        lines.append(t(lang, "lobby.fair", commitment=record.fair_dice.commitment))
    return "\n".join(lines)


def scores_lines(
    state: GameState, lang: str, last: Turns = (), style: Style = "emoji"
) -> list[str]:
    """One line per player: this round's score (if played) and the match total, then the
    player's last turn: its rolls, what they closed and why it ended."""
    if state.config.format.kind is FormatKind.LONG:
        roles = t(lang, "game.long_roles", closer=state.seats[0].name, opener=state.seats[1].name)
        return [roles, *_turn_lines(state, lang, last, range(len(state.seats)), style)]
    lines = []
    for index, seat in enumerate(state.seats):
        played = state.played[index] if index < len(state.played) else None
        mark = "—" if played is None else played
        status = _seat_status(state, index, lang)
        lines.append(t(lang, "game.score_line", player=display_name(state, index), round=mark,
                       total=seat.total, status=status))  # fmt: skip
        lines += _turn_lines(state, lang, last, [index], style)
    return lines


def _turn_lines(
    state: GameState, lang: str, last: Turns, seats: Sequence[int], style: Style
) -> list[str]:
    """The last turns under the scores; in the long game, which has no score lines, named."""
    named = state.config.format.kind is FormatKind.LONG
    found = ((i, turns.line(last[i], i, state, lang, style)) for i in seats if i < len(last))
    return [
        text.replace("↳ ", f"↳ {display_name(state, i)}: ", 1) if named else text
        for i, text in found
        if text
    ]


def _seat_status(state: GameState, index: int, lang: str) -> str:
    seat = state.seats[index]
    if seat.out:
        return t(lang, "game.status_out")
    if seat.dropped:
        return t(lang, "game.status_dropped")
    if index == state.turn and not state.over:
        return " ◀"
    return ""


def _turn_rows(record: GameRecord, page: int) -> tuple[tuple[Button, ...], ...]:
    state = record.state
    hint = _hint_button(record)
    if state.phase is Phase.ROLL:
        return ((*_roll_buttons(record), *hint),)
    moves = options(state.config.rules, flow.available(state), state.dice).moves
    pages = max(1, -(-len(moves) // MOVES_PER_PAGE))
    page %= pages
    shown = moves[page * MOVES_PER_PAGE : (page + 1) * MOVES_PER_PAGE]
    rows = [
        tuple(_move_button(record, m) for m in shown[i : i + ROW])
        for i in range(0, len(shown), ROW)
    ]
    extra = list(hint)
    if pages > 1:
        more = ButtonId("page", record.game_id, record.version, (page + 1) % pages)
        extra.append(Button(str(more), t(record.lang, "ui.more_moves", page=page + 1, pages=pages)))
    if extra:
        rows.append(tuple(extra))
    return tuple(rows)


def _roll_buttons(record: GameRecord) -> list[Button]:
    state = record.state
    choices = state.config.rules.dice_choices(flow.available(state))
    gid, version = record.game_id, record.version
    if len(choices) == 1:
        label = t(record.lang, "ui.roll")
        return [Button(str(ButtonId("roll", gid, version, choices[0])), label, ButtonStyle.PRIMARY)]
    return [
        Button(
            str(ButtonId("roll", gid, version, n)),
            t(record.lang, f"ui.roll_{n}"),
            ButtonStyle.PRIMARY,
        )
        for n in choices
    ]


def _move_button(record: GameRecord, move: int) -> Button:
    action = ButtonId("choose", record.game_id, record.version, move)
    return Button(str(action), render_move(move), ButtonStyle.SUCCESS)


def _hint_button(record: GameRecord) -> list[Button]:
    if not record.state.config.hints:
        return []
    action = ButtonId("hint", record.game_id, record.version)
    return [Button(str(action), t(record.lang, "ui.hint"))]


def _over_body(record: GameRecord, notices: Sequence[str]) -> str:
    state, lang = record.state, record.lang
    lines = [*_final_box(record), *list(notices)[-MAX_NOTICES:], ending_line(state, lang)]
    if state.round:
        lines += scores_lines(state, lang, record.turns, style_of(record))
    if record.fair_dice is not None:
        lines.append(t(lang, "game.fair_reveal", seed=record.fair_dice.server_seed))
    return "\n".join(lines)


def _final_box(record: GameRecord) -> list[str]:
    """The box as the last player left it, under their name; a game that never began has none."""
    state = record.state
    if not state.round:
        return []
    board = board_text(state, style_of(record))
    if state.config.format.kind is FormatKind.LONG or not 0 <= record.box < len(state.seats):
        return [board]
    return [t(record.lang, "game.final_box", player=display_name(state, record.box)), board]


def ending_line(state: GameState, lang: str) -> str:
    if state.ending is Ending.STOPPED and state.config.stakes.staked:
        return t(lang, "game.ending.stopped_stakes")
    if state.ending is not Ending.FINISHED:
        return t(lang, f"game.ending.{state.ending.value}")
    if not state.winners or state.void:  # a void match has nobody to congratulate
        return t(lang, "game.no_winner")
    names = join_list(lang, [display_name(state, i) for i in state.winners])
    key = "game.winner" if len(state.winners) == 1 else "game.winners"
    return t(lang, key, names=names)
