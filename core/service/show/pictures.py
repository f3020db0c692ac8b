"""The game message's picture (the image style): what the board picture shows of a game.

A game shown in the image style carries the picture's text form (`DrawnBoard.to_token`) in its
view, and the text board as the picture's alternative text; each surface turns the token into a
PNG its own way (Discord attaches it, Slack links to the bot's signed URL).
"""

from __future__ import annotations

from core.game.match import StakesKind
from core.game.state import Phase
from core.service.model.record import GameRecord
from core.text.drawn import DrawnBoard
from core.text.render import render_board

IMAGE_STYLE = "image"


def drawn_board(record: GameRecord) -> DrawnBoard | None:
    """The picture of a game in the image style: its box, the roll to choose for, whose turn it
    is and the pot; None for other styles and for a lobby (no box yet)."""
    state = record.state
    if record.style != IMAGE_STYLE or state.phase is Phase.LOBBY or not state.round:
        return None
    seat = state.to_act
    choosing = state.phase is Phase.CHOOSE and not state.over
    return DrawnBoard(
        tiles=state.config.rules.tiles,
        open_mask=state.board,
        dice=state.dice if choosing else (),
        player=seat.name if seat is not None and not state.over else "",
        pot=record.pot.total if state.config.stakes.kind is StakesKind.POT else None,
    )


def picture_of(record: GameRecord) -> tuple[str, str]:
    """The picture's token and its alternative text (the text board); ("", "") for none."""
    board = drawn_board(record)
    if board is None:
        return "", ""
    return board.to_token(), render_board(record.state.config.rules, record.state.board, "text")
