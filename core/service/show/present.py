"""The views a surface shows: the game message, event notices, round and match summaries."""

from __future__ import annotations

from collections.abc import Sequence

from core.game import flow
from core.game.match import FormatKind, StakesKind
from core.game.state import Ending, GameState, Phase
from core.service.features import rematch, reviews
from core.service.features.challenge.day import Tag
from core.service.model import turns
from core.service.model.buttons import ButtonId
from core.service.model.record import GameRecord
from core.service.model.turns import Turns
from core.service.model.views import DEADLINE, Button, ButtonStyle, GameView
from core.service.show.lobby import lobby_body, lobby_rows
from core.service.show.pictures import IMAGE_STYLE, picture_of
from core.text.i18n import join_list, t
from core.text.render import Style, render_board, render_dice, render_move

MOVES_PER_PAGE = 20  # four rows of five buttons; the fifth row holds Hint and More
ROW = 5
MAX_NOTICES = 14
Rows = tuple[tuple[Button, ...], ...]


def style_of(record: GameRecord) -> Style:
    """The style of the message's text: the picture's is the text style, which reads aloud."""
    return "text" if record.style in {"text", IMAGE_STYLE} else "emoji"


def board_text(state: GameState, style: Style) -> str:
    board = render_board(state.config.rules, state.board, style)
    return f"`{board}`" if style == "text" else board


def game_view(record: GameRecord, notices: Sequence[str] = (), page: int = 0) -> GameView:
    """The one game message: lobby, turn in progress, or final result."""
    state, lang = record.state, record.lang
    if state.phase is Phase.LOBBY:
        title, body, rows = t(lang, "lobby.title"), lobby_body(record), lobby_rows(record)
    elif state.over:
        title, body = t(lang, "game.over_title"), _over_body(record, notices)
        rows = _over_rows(record)
    else:
        title, body, rows = (
            _round_title(state, lang),
            _turn_body(record, notices),
            _turn_rows(record, page),
        )
    if record.challenge:
        title, body, rows = _as_challenge(record, body, rows)
    # a challenge's private screen keeps to text: an ephemeral answer carries no attachment
    picture, alt = ("", "") if record.challenge else picture_of(record)
    return GameView(
        channel=record.channel, game_id=record.game_id, version=state.version, title=title,
        body=body, rows=rows, deadline=record.deadline, message=record.message, over=state.over,
        private=bool(record.challenge), picture=picture, alt=alt,
    )  # fmt: skip


def _as_challenge(record: GameRecord, body: str, rows: Rows) -> tuple[str, str, Rows]:
    """A daily challenge's private screen: its number, the day's commitment on every view
    (the seed is revealed only when the day is over); no timer (nothing times it out), no
    winner line (one player), and no Rematch or Review once it ends."""
    tag, fair = Tag.from_str(record.challenge), record.fair_dice
    assert tag is not None and fair is not None
    title = t(record.lang, "challenge.title", number=tag.number)
    body = body.replace(f" ⏱ {DEADLINE}", "")
    if record.state.over:
        body = body.replace(ending_line(record.state, record.lang) + "\n", "")
    match_line = t(record.lang, "lobby.fair", commitment=fair.commitment)
    day_line = t(record.lang, "challenge.commitment", commitment=fair.commitment)
    body = body.replace(match_line, day_line) if match_line in body else f"{body}\n{day_line}"
    return title, body, () if record.state.over else rows


def _over_rows(record: GameRecord) -> tuple[tuple[Button, ...], ...]:
    """A finished match's message keeps Rematch and Review; a stopped one has no buttons."""
    if not rematch.finished(record):
        return ()
    review = reviews.review_button(record)
    if record.tour:  # a tournament's table: the next round, not a rematch, follows it
        return ((review,),) if review else ()
    return ((rematch.rematch_button(record), *([review] if review else [])),)


def display_name(state: GameState, index: int) -> str:
    seat = state.seats[index]
    return f"🤖 {seat.name}" if seat.bot else seat.name


def _latest(notices: Sequence[str]) -> list[str]:
    """The last notices that fit, after `…` when earlier ones were left out."""
    if len(notices) <= MAX_NOTICES:
        return list(notices)
    return ["…", *notices[-MAX_NOTICES:]]


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
    lines += _latest(notices)
    if state.config.stakes.kind is StakesKind.POT:
        lines.append(t(lang, "game.pot", pot=record.pot.total))
    seat = state.to_act
    assert seat is not None
    if state.phase is Phase.CHOOSE:
        dice = render_dice(state.dice, style)
        key = "game.choose_last_die" if state.ends_turn else "game.choose"
        if flow.opening(state):  # the long game's opener moves closed tiles, not open ones
            key = "game.open_choose_last_die" if state.ends_turn else "game.open_choose"
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
        roles = t(lang, "game.long_roles", closer=display_name(state, 0),
                  opener=display_name(state, 1))  # fmt: skip
        return [roles, *_turn_lines(state, lang, last, range(len(state.seats)), style)]
    lines = []
    for index in range(len(state.seats)):
        played = state.played[index] if index < len(state.played) else None
        mark = "—" if played is None else played
        status = _seat_status(state, index, lang)
        lines.append(t(lang, "game.score_line", player=display_name(state, index), round=mark,
                       total=running_total(state, index), status=status))  # fmt: skip
        lines += _turn_lines(state, lang, last, [index], style)
    return lines


def running_total(state: GameState, index: int) -> int:
    """A player's match total with the round being played: the engine adds a round's scores
    only when the round ends, but a total shown beside this round's score must include it."""
    total = state.seats[index].total
    played = state.played[index] if index < len(state.played) else None
    if state.over or played is None:
        return total
    return total + played


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
        return t(lang, "game.status_left" if seat.left else "game.status_dropped")
    if index == state.turn and not state.over:
        return " ◀"
    return ""


def _turn_rows(record: GameRecord, page: int) -> tuple[tuple[Button, ...], ...]:
    state = record.state
    hint = _hint_button(record)
    if state.phase is Phase.ROLL:
        return ((*_roll_buttons(record), *hint),)
    moves = state.config.rules.allows(flow.available(state), state.dice).moves
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
    lines = [*_final_box(record), *_latest(notices), ending_line(state, lang)]
    if state.round:
        lines += scores_lines(state, lang, record.turns, style_of(record))
    if record.fair_dice is not None and not record.challenge:  # a challenge's seed is the day's
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
    if state.ending is Ending.STOPPED:
        return _stopped_line(state, lang)
    if state.ending is not Ending.FINISHED:
        return t(lang, f"game.ending.{state.ending.value}")
    if not state.winners or state.void:  # a void match has nobody to congratulate
        return t(lang, "game.no_winner")
    if len(state.seats) == 1:
        return t(lang, "game.solo_over", player=state.seats[0].name, total=state.seats[0].total)
    names = join_list(lang, [display_name(state, i) for i in state.winners])
    key = "game.winner" if len(state.winners) == 1 else "game.winners"
    return t(lang, key, names=names)


def _stopped_line(state: GameState, lang: str) -> str:
    """What a stop means for the totals: the round it cut short does not count (the notice
    above says who stopped it)."""
    staked = "_stakes" if state.config.stakes.staked else ""
    if not state.round or state.config.format.kind is FormatKind.LONG:
        return t(lang, f"game.ending.stopped{staked}")
    return t(lang, f"game.ending.stopped_round{staked}", round=state.round)
