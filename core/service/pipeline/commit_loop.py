"""The commit loop: an action applied to the channel's game and written by one atomic commit.

A click is applied to the cached game (or one loaded from Redis), and the result is written by
one commit that checks the version and records the request id; when another process got there
first the commit says so and the action is tried again on fresh state. `commit_plan` is the one
commit of every game: a lobby, a solo game, a rematch, a click, a timeout and the daily
challenge all write through it.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from core.game.actions import Action, Join
from core.game.engine import apply
from core.game.errors import InsufficientChips, NoGame, ShutboxError, StaleAction
from core.service.features import audit, pings, ratings
from core.service.features.challenge.day import STREAKS, readable_streak
from core.service.features.skill import Skill
from core.service.features.tournaments import news
from core.service.model import keys, unreadable
from core.service.model.commit import Scope, Status
from core.service.model.context import Context
from core.service.model.outcomes import NotApplied, resolve_lost
from core.service.model.ports import OutcomeUnknown
from core.service.model.record import GameRecord
from core.service.model.views import Reply
from core.service.pipeline.cached import (
    balance_of,
    forget_game,
    forget_game_and_chips,
    known_balances,
    knows_game,
    learn,
    record_of,
    remember,
    stakers_balances,
)
from core.service.pipeline.game_commit import Plan, plan_change
from core.service.pipeline.runtime import GameRuntime
from core.service.pipeline.table_ends import joined
from core.text.i18n import t

MAX_ATTEMPTS = 5


class Busy(ShutboxError):
    """The game kept changing under this click; the user may simply try again."""

    key = "error.busy"


async def act(rt: GameRuntime, ctx: Context, action: Action, game_id: str | None = None) -> Reply:
    """Apply an action to the channel's game and commit it, retrying on a lost race."""
    for _ in range(MAX_ATTEMPTS):
        cached = knows_game(rt, ctx.scope, ctx.channel)
        try:
            record = await _game_for(rt, ctx, game_id)
            await _check_chips(rt, ctx, record, action)
            plan = await plan_action(rt, ctx, record, action)
        except ShutboxError:
            if not cached:
                raise
            # Refuse only on fresh state: another process may have moved this game on.
            forget_game(rt, ctx.scope, ctx.channel)
            continue
        reply = await commit_plan(rt, ctx.scope, ctx.channel, plan)
        if reply is not None:
            return reply
    raise Busy()


async def _game_for(rt: GameRuntime, ctx: Context, game_id: str | None) -> GameRecord:
    """The channel's game, which must be the one the button was shown for."""
    record = await record_of(rt, ctx.scope, ctx.channel)
    if record is None:
        raise NoGame("error.game_over" if game_id else "error.no_game")
    if game_id is not None and record.game_id != game_id:
        raise StaleAction()
    return record


async def plan_action(rt: GameRuntime, ctx: Context, record: GameRecord, action: Action) -> Plan:
    """The action applied by the pure engine, and the one commit that writes its change."""
    fair = record.fair_dice
    state, events = apply(record.state, action, fair or rt.dice)
    config = await rt.server_config(ctx.scope)
    balances = await stakers_balances(rt, ctx.scope, (record.state, state), config)
    rated = ratings.rated(state, events, solo=record.solo)
    skills = await _skills(rt, ctx.scope, [state.seats[i].id for i in rated])
    streak = ""
    if record.challenge and state.over:  # the member's streak goes on with the result
        streak = (await rt.store.hash_fields(ctx.scope, STREAKS, [ctx.user])).get(ctx.user, "")
        if readable_streak(streak) is None:  # the turn still finishes; that streak stays
            rt.contained(ctx.scope, unreadable.challenge(f"{STREAKS} {ctx.user}", streak[:20]))
    plan = plan_change(
        ctx.scope, record, state, events, balances=balances,
        now=int(rt.clock()), request_id=ctx.request_id, start_balance=config.start_chips,
        fair=fair, skills=skills, streak=streak, encode=False,
    )  # fmt: skip
    stop = audit.admin_stop(ctx, record, action, int(rt.clock()))
    # Turn calls (core/service/features/pings.py): the player whose turn it is now.
    call, uncall = await pings.called(rt.store, ctx.scope, record, plan.final, config.ping)
    reply = plan.reply if call is None and not uncall else replace(
        plan.reply, call=call, uncall=uncall)  # fmt: skip
    # The reply is encoded once, as it will be shown, for the request id to keep.
    commit = replace(plan.commit, ops=(*plan.commit.ops, *stop), result=reply.to_json())
    return replace(plan, reply=reply, commit=commit)


async def _skills(rt: GameRuntime, scope: Scope, users: list[str]) -> dict[str, Skill]:
    """The ratings of the players a finishing match rates (none read otherwise), theirs only."""
    stored = await rt.store.hash_fields(scope, keys.RATINGS, users)
    return {u: Skill.from_str(stored[u]) for u in users if u in stored}


async def commit_plan(rt: GameRuntime, scope: Scope, channel: str, plan: Plan) -> Reply | None:
    """Write the plan; None means the game changed meanwhile and the caller should retry."""
    plan, table_end = await joined(rt, scope, plan)  # a tournament table's end: its round too
    try:
        result = await rt.store.commit(plan.commit)
    except OutcomeUnknown:
        return await _resolve_lost_commit(rt, scope, channel, plan)
    if result.status is Status.OK:
        remember(rt, scope, channel, plan.record, result)
        if table_end is not None:  # a tournament table ended: what its round's end tells
            reply = await news.after_table(rt, scope, table_end, plan.reply)
            return _with_message(reply, result.message)
        return _with_message(plan.reply, result.message)
    if result.status is Status.DUPLICATE:
        if result.applied_by == plan.commit.attempt:  # redis-py resent it after a lost reply
            forget_game_and_chips(rt, scope, channel, plan.commit.report_accounts)
            return _with_message(plan.reply, result.message)
        return Reply.from_json(result.result, replayed=True)
    learn(rt, scope, channel, result)
    return None


async def _resolve_lost_commit(rt: GameRuntime, scope: Scope, channel: str, plan: Plan) -> Reply:
    """The commit's reply was lost: ask Redis what happened before telling the player."""
    forget_game_and_chips(rt, scope, channel, plan.commit.report_accounts)
    result = await resolve_lost(rt.store, plan.commit, rt.resolve_pauses, asyncio.sleep,
                                rt.resolve_budget)  # fmt: skip
    if result.status is not Status.DUPLICATE:
        raise NotApplied()
    if result.applied_by != plan.commit.attempt:  # a retry of the same request got there
        return Reply.from_json(result.result, replayed=True)
    note = t(plan.final.lang, "outcome.applied")
    private = f"{plan.reply.private}\n{note}" if plan.reply.private else note
    return replace(plan.reply, private=private)


async def _check_chips(rt: GameRuntime, ctx: Context, record: GameRecord, action: Action) -> None:
    """A player may only join a staked game with enough chips for the ante."""
    stakes = record.state.config.stakes
    if not isinstance(action, Join) or not stakes.staked:
        return
    await require_chips(rt, ctx, stakes.amount)


async def require_chips(rt: GameRuntime, ctx: Context, needed: int) -> None:
    balance = await balance_of(rt, ctx.scope, ctx.user)
    known_balances(rt, ctx.scope)[ctx.user] = balance
    if balance < needed:
        raise InsufficientChips("error.chips.join", balance=balance, needed=needed)


def _with_message(reply: Reply, message: str) -> Reply:
    """The reply's game view pointing at the game message another process may have posted."""
    if not message or reply.game is None or reply.game.message == message:
        return reply
    return replace(reply, game=replace(reply.game, message=message))
