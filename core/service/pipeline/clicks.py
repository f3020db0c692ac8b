"""A button press: its id names a verb, the game and the version it was shown at.

Lobby and turn buttons become game actions through the commit loop; Hint and the page buttons
answer from the game as stored; Review, Rematch and a leaderboard's pages run their command.
"""

from __future__ import annotations

from collections.abc import Callable

from core.game.actions import (
    Action,
    AddBot,
    Begin,
    Cancel,
    Choose,
    HandHost,
    Join,
    Leave,
    RemoveSeat,
    Roll,
)
from core.game.errors import NotYourTurn, StaleAction
from core.service.api.commands import Click, Command
from core.service.features import hints
from core.service.features.boards import board_of
from core.service.features.tournaments.command import TournamentCommand
from core.service.features.tournaments.handler import tournament
from core.service.features.tournaments.texts import SIGNUP_VERBS
from core.service.model.buttons import ButtonId
from core.service.model.context import Context
from core.service.model.record import GameRecord
from core.service.model.services import Route
from core.service.model.views import Reply
from core.service.pipeline import game_commands as game
from core.service.pipeline import opening
from core.service.pipeline import server_commands as server
from core.service.pipeline.cached import fresh_record
from core.service.pipeline.challenge_commands import check_challenge_day
from core.service.pipeline.commit_loop import act
from core.service.pipeline.runtime import GameRuntime
from core.service.show import present


def clicked_button(command: Command) -> ButtonId | None:
    """The button a click command pressed, if its id is well formed."""
    return command.pressed if isinstance(command, Click) else None


async def click(rt: GameRuntime, ctx: Context, command: Click) -> Reply:
    """The handler of a button press, by the verb in its id."""
    button = command.pressed
    if button is None:  # forged or broken: refused like an outdated button
        raise StaleAction()
    check_challenge_day(button.game, rt.clock())
    if button.verb == "hint":
        return await _hint(rt, ctx, button)
    if button.verb == "page":
        return await _page(rt, ctx, button)
    if button.verb == "review":
        return await game.review(rt, ctx, button.game)
    if button.verb in SIGNUP_VERBS:  # a tournament's sign-up message
        signup = TournamentCommand(SIGNUP_VERBS[button.verb], tournament=button.game,
                                   panel=True)  # fmt: skip
        return await tournament(rt, ctx, signup)
    if button.verb == "rematch":
        return await opening.rematch(rt, ctx, button.game)
    if button.verb == "board":
        preset, season = board_of(button.version)
        return await server.board(rt, ctx, button.game, preset, button.arg, season)
    action = _BUTTON_ACTIONS[button.verb](ctx, button)
    return await act(rt, ctx, action, game_id=button.game)


async def _hint(rt: GameRuntime, ctx: Context, button: ButtonId) -> Reply:
    record = await _turn_record(rt, ctx, button)
    lang = await rt.private_lang(ctx)
    return Reply(private=hints.hint_text(record.state, lang))


async def _page(rt: GameRuntime, ctx: Context, button: ButtonId) -> Reply:
    record = await _turn_record(rt, ctx, button)
    return Reply(game=present.game_view(record, page=button.arg))


async def _turn_record(rt: GameRuntime, ctx: Context, button: ButtonId) -> GameRecord:
    """The game a turn button belongs to, after checking the clicker is the player to act.

    Hints and pages commit nothing, so no version check would catch a stale cache: read the
    game afresh (one round trip) before answering.
    """
    record = await fresh_record(rt, ctx.scope, ctx.channel)
    if record is None or record.game_id != button.game:
        raise StaleAction()
    seat = record.state.to_act
    if seat is None:
        raise StaleAction()
    if seat.id != ctx.user:
        raise NotYourTurn(player=seat.name)
    if button.version != record.version:
        raise StaleAction()
    return record


CLICK_ROUTES = (Route(Click, click),)

_BUTTON_ACTIONS: dict[str, Callable[[Context, ButtonId], Action]] = {
    "join": lambda ctx, b: Join(ctx.user, version=None, name=ctx.name),
    "leave": lambda ctx, b: Leave(ctx.user),
    "bot": lambda ctx, b: AddBot(ctx.user),
    "begin": lambda ctx, b: Begin(ctx.user),
    "cancel": lambda ctx, b: Cancel(ctx.user),
    # The seat's number changes when someone joins or leaves: only the message shown counts.
    "remove": lambda ctx, b: RemoveSeat(ctx.user, version=b.version, seat=b.arg),
    "host": lambda ctx, b: HandHost(ctx.user, version=b.version, seat=b.arg),
    "roll": lambda ctx, b: Roll(ctx.user, version=b.version, count=b.arg),
    "choose": lambda ctx, b: Choose(ctx.user, version=b.version, tiles=b.arg),
}
