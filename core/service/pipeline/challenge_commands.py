"""`/shutbox challenge`: today's daily challenge, its board, and where its buttons lead.

One attempt per member and UTC day: the game is created together with the attempt, so a
second `challenge` shows the result (or the unfinished game again, never new dice). The day's
seed comes from the server's secret (core/service/features/challenge/day.py), created once in
the server's Redis slot by whichever process needs it first.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from core.game.actions import Begin
from core.game.dice import FairDice
from core.game.engine import apply, new_game
from core.game.errors import IllegalMove, NotAllowed
from core.game.payments import pot_account
from core.game.settlement import Pot
from core.service.api.commands import Challenge, Click, Command
from core.service.features.challenge import texts
from core.service.features.challenge.board import challenge_day, streak_text
from core.service.features.challenge.day import (
    STREAKS,
    Day,
    Result,
    Streak,
    Tag,
    channel_of,
    day_of,
    day_of_game,
    game_id_of,
    readable_streak,
)
from core.service.model import keys, unreadable
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.record import GameRecord
from core.service.model.settings import ServerConfig, StartOptions
from core.service.model.views import Reply
from core.service.pipeline.cached import fresh_record
from core.service.pipeline.commit_loop import commit_plan
from core.service.pipeline.game_commit import plan_change
from core.service.pipeline.runtime import GameRuntime
from core.service.show import present
from core.text.i18n import t


async def challenge(rt: GameRuntime, ctx: Context, command: Challenge) -> Reply:
    """The daily challenge's command (its board and stats line: features/challenge/board.py)."""
    if ctx.direct:
        raise NotAllowed("error.challenge.direct")
    now = rt.clock()
    server, lang = await rt.server_config(ctx.scope), await rt.private_lang(ctx)
    day = await challenge_day(rt.store, ctx.scope, day_of(now))
    mine = await _attempt(rt, ctx.scope, day.day, ctx.user)
    if mine:
        return await _again(rt, ctx, day, mine, lang)
    reply = await _start_challenge(rt, ctx, day, server, lang)
    if reply is None:  # the same member's other request started it a moment earlier
        mine = await _attempt(rt, ctx.scope, day.day, ctx.user)
        return await _again(rt, ctx, day, mine, lang)
    return reply


async def _attempt(rt: GameRuntime, scope: Scope, day: date, user: str) -> str:
    return (await rt.store.hash(scope, keys.challenge_day(day))).get(user, "")


async def _start_challenge(
    rt: GameRuntime, ctx: Context, day: Day, server: ServerConfig, lang: str
) -> Reply | None:
    """Create the member's game with today's attempt, its first roll made, through the one
    commit of every game; None when the attempt was taken meanwhile."""
    config = StartOptions(format="rounds:1", hints=False).config(server, solo=True)
    channel = channel_of(day.day, ctx.user)
    fair = FairDice(day.seed, day.client_seed)
    record = GameRecord(
        state=new_game(config, ctx.user, ctx.name), channel=channel,
        game_id=game_id_of(day.day), lang=lang, style=server.style,
        pot=Pot(pot_account(channel)), fair=fair.to_str(), created=int(rt.clock()),
        solo=True, challenge=Tag(day.day, day.number, server.lang).to_str(),
    )  # fmt: skip
    state, events = apply(record.state, Begin(ctx.user), fair)
    plan = plan_change(
        ctx.scope, record, state, events, balances={}, now=int(rt.clock()),
        request_id=ctx.request_id, start_balance=server.start_chips, fair=fair,
        creating=True, streak=await streak_text(rt.store, ctx.scope, ctx.user),
    )  # fmt: skip
    reply = await commit_plan(rt, ctx.scope, channel, plan)
    if reply is None or reply.replayed:
        return reply
    return replace(reply, private=_with_reveal(reply.private, day, server, lang))


async def _again(rt: GameRuntime, ctx: Context, day: Day, mine: str, lang: str) -> Reply:
    """A second `challenge` today: the result and the next start, or the unfinished game."""
    first = await rt.store.request_result(ctx.scope, ctx.request_id or "")
    if first is not None:  # a repeated delivery of the request that started it
        return Reply.from_json(first, replayed=True)
    server = await rt.server_config(ctx.scope)
    result = _result(ctx, day.day, mine)
    if result is not None:
        stored = await streak_text(rt.store, ctx.scope, ctx.user)
        known = readable_streak(stored)
        if known is None:  # the result still shows, with no run counted on
            rt.contained(ctx.scope, unreadable.challenge(f"{STREAKS} {ctx.user}", stored[:20]))
        streak = (known or Streak()).on(day.day)
        text = texts.done_text(day, result, streak, rt.clock(), lang)
        return Reply(private=_with_reveal(text, day, server, lang))
    record = await fresh_record(rt, ctx.scope, channel_of(day.day, ctx.user))
    if record is None:
        raise IllegalMove("error.challenge.gone")
    return Reply(game=present.game_view(record), private=t(lang, "challenge.resumed"))


def _result(ctx: Context, day: date, mine: str) -> Result | None:
    """Today's stored result (None: started, not finished); `Unreadable` when it can't be
    read, which the member is told in one line."""
    try:
        return Result.from_str(mine)
    except ValueError as exc:
        raise unreadable.challenge(f"{keys.challenge_day(day)} {ctx.user}", exc) from exc


def _with_reveal(text: str | None, day: Day, server: ServerConfig, lang: str) -> str:
    """The text, then yesterday's seed and dice (its day is over) for `shutbox verify`."""
    before = day.previous()
    if before is None:
        return text or ""
    rules = StartOptions().config(server, solo=True).rules
    shown = texts.revealed(before.number, before.record(rules), lang)
    return f"{text}\n{shown}" if text else shown


def challenge_context(ctx: Context, command: Command) -> Context:
    """A challenge button's context: its game is the presser's own, kept under its own key."""
    if not isinstance(command, Click) or command.pressed is None:
        return ctx
    day = day_of_game(command.pressed.game)
    return ctx if day is None else replace(ctx, channel=channel_of(day, ctx.user))


def check_challenge_day(game: str, now: float) -> None:
    """A challenge's buttons work only on its own day: after it, the seed is public."""
    day = day_of_game(game)
    if day is not None and day != day_of(now):
        raise IllegalMove("error.challenge.over")
