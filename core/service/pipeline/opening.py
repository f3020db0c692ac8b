"""Opening a game: a new lobby (`start`), a solo game begun at once, and a rematch."""

from __future__ import annotations

from dataclasses import replace

from core.game.actions import Action, AddBot, Begin
from core.game.dice import new_fair_dice
from core.game.engine import apply, new_game
from core.game.errors import IllegalMove, NotAllowed
from core.game.match import MatchConfig
from core.game.payments import pot_account
from core.game.settlement import Pot
from core.game.state import GameState, Phase
from core.service.features import rematch as rematches
from core.service.model import keys
from core.service.model.context import Context
from core.service.model.record import GameRecord, new_game_id
from core.service.model.settings import ServerConfig, StartOptions
from core.service.model.views import Reply
from core.service.pipeline.cached import (
    fresh_record,
    knows_game,
    record_of,
    stakers_balances,
)
from core.service.pipeline.commit_loop import MAX_ATTEMPTS, commit_plan, require_chips
from core.service.pipeline.game_commit import plan_change
from core.service.pipeline.runtime import GameRuntime
from core.text.i18n import t


async def open_game(rt: GameRuntime, ctx: Context, options: StartOptions, *, solo: bool) -> Reply:
    """A lobby, or a solo game begun at once."""
    server = await rt.server_config(ctx.scope)
    config = options.config(server, solo=solo)
    if ctx.direct and not solo:
        raise IllegalMove("error.direct_solo_only")
    # another process may have ended the cached game
    running = await fresh_record(rt, ctx.scope, ctx.channel)
    if running is not None:
        raise IllegalMove(_open_here(running.state, ctx.user), host=running.state.host.name)
    if config.stakes.staked:
        await require_chips(rt, ctx, config.stakes.amount)
    record = _new_record(rt, ctx, config, server, solo=solo, fair=bool(options.fair or server.fair))
    actions: list[Action] = [Begin(ctx.user)] if solo else []
    return await create_game(rt, ctx, record, actions, server)


def _new_record(
    rt: GameRuntime,
    ctx: Context,
    config: MatchConfig,
    server: ServerConfig,
    *,
    solo: bool,
    fair: bool,
) -> GameRecord:
    game_id = new_game_id()
    return GameRecord(
        state=new_game(config, ctx.user, ctx.name), channel=ctx.channel, game_id=game_id,
        lang=server.lang, style=rt.board_style(ctx.scope, server.style),
        pot=Pot(pot_account(ctx.channel)),
        fair=new_fair_dice(f"{ctx.channel}:{game_id}").to_str() if fair else "",
        created=int(rt.clock()), solo=solo,
    )  # fmt: skip


async def create_game(
    rt: GameRuntime, ctx: Context, record: GameRecord, actions: list[Action], server: ServerConfig
) -> Reply:
    state, events = record.state, []
    fair = record.fair_dice
    for action in actions:
        state, more = apply(state, action, fair or rt.dice)
        events += more
    for _ in range(MAX_ATTEMPTS):
        balances = await stakers_balances(rt, ctx.scope, (state,), server)
        plan = plan_change(
            ctx.scope, record, state, events, balances=balances,
            now=int(rt.clock()), request_id=ctx.request_id,
            start_balance=server.start_chips, fair=fair, creating=True,
        )  # fmt: skip
        reply = await commit_plan(rt, ctx.scope, ctx.channel, plan)
        if reply is not None:
            return reply
        if knows_game(rt, ctx.scope, ctx.channel):  # another game got there first
            break
        # A balance changed under the first ante: plan again on the ones returned.
    raise IllegalMove("error.already_running", host="?")


async def rematch(rt: GameRuntime, ctx: Context, game: str) -> Reply:
    """A new lobby with the settings of match `game`, the presser as host, its bots seated
    again and its other players called; a game already open here is pointed to instead."""
    server, lang = await rt.server_config(ctx.scope), await rt.private_lang(ctx)
    running = await fresh_record(rt, ctx.scope, ctx.channel)
    if running is not None:
        return Reply(private=t(lang, "rematch.running", host=running.state.host.name))
    last = await _last_match(rt, ctx)
    if last is None or last.game_id != game:
        raise IllegalMove("error.rematch.gone")
    if not last.played(ctx.user):
        raise NotAllowed("error.rematch.not_played")
    if last.config.stakes.staked:
        await require_chips(rt, ctx, last.config.stakes.amount)
    record = _new_record(rt, ctx, last.config, server, solo=last.solo, fair=last.fair)
    actions: list[Action] = [AddBot(ctx.user) for _ in range(last.bots)]
    try:
        reply = await create_game(rt, ctx, record, actions + [Begin(ctx.user)] * last.solo, server)
    except IllegalMove as lost:  # another press opened the rematch a moment earlier
        running = await record_of(rt, ctx.scope, ctx.channel)
        if lost.key != "error.already_running" or running is None:
            raise
        return Reply(private=t(lang, "rematch.running", host=running.state.host.name))
    others = [rematches.mention(ctx, u, n) for u, n in last.humans if u != ctx.user]
    if not others:
        return reply
    call = t(server.lang, "rematch.call", host=ctx.name, players=", ".join(others))
    return replace(reply, public=(*reply.public, call))


async def _last_match(rt: GameRuntime, ctx: Context) -> rematches.LastMatch | None:
    """The channel's last match, as the rematch keeper stored it."""
    key = keys.rematch(ctx.channel)
    stored = (await rt.store.hash(ctx.scope, key)).get(rematches.FIELD)
    if stored is None:  # kept by an older version, in one hash for every channel
        stored = (await rt.store.hash(ctx.scope, keys.REMATCH_LEGACY)).get(ctx.channel)
    return rematches.LastMatch.from_str(stored) if stored else None


def _open_here(state: GameState, user: str) -> str:
    """Why no game opens: a lobby to join (or already joined), or a game being played."""
    if state.phase is not Phase.LOBBY:
        return "error.already_running"
    return "error.lobby_open_seated" if state.seat_of(user) is not None else "error.lobby_open"
