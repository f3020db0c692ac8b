"""The commit loop: an action applied to the channel's game and written by one atomic commit.

A click is applied to the cached game (or one loaded from Redis), and the result is written by
one commit that checks the version and records the request id; when another process got there
first the commit says so and the action is tried again on fresh state.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from core.game.actions import Action, Join
from core.game.engine import apply
from core.game.errors import InsufficientChips, NoGame, ShutboxError, StaleAction
from core.game.state import GameState
from core.service.features import audit, pings, ratings
from core.service.features.challenge import STREAKS
from core.service.features.skill import Skill
from core.service.features.tournaments import news
from core.service.model.commit import CommitResult, Scope, Status
from core.service.model.context import Context
from core.service.model.outcomes import NotApplied, resolve_lost
from core.service.model.ports import OutcomeUnknown
from core.service.model.record import GameRecord
from core.service.model.settings import ServerConfig
from core.service.model.views import Reply
from core.service.pipeline.game_commit import Plan, human_ids, plan_change
from core.service.pipeline.manager_base import ManagerBase
from core.text.i18n import t

MAX_ATTEMPTS = 5


class Busy(ShutboxError):
    """The game kept changing under this click; the user may simply try again."""

    key = "error.busy"


class CommitLoop(ManagerBase):
    """Actions applied to the channel's game and committed, retried when a race is lost."""

    async def _act(self, ctx: Context, action: Action, game_id: str | None = None) -> Reply:
        """Apply an action to the channel's game and commit it, retrying on a lost race."""
        for _ in range(MAX_ATTEMPTS):
            cached = (ctx.scope.tag, ctx.channel) in self.games
            try:
                plan = await self._prepare(ctx, action, game_id)
            except ShutboxError:
                if not cached:
                    raise
                # Refuse only on fresh state: another process may have moved this game on.
                self._forget(ctx.scope, ctx.channel)
                continue
            reply = await self._commit(ctx.scope, ctx.channel, plan)
            if reply is not None:
                return reply
        raise Busy()

    async def _prepare(self, ctx: Context, action: Action, game_id: str | None) -> Plan:
        record = await self._record(ctx.scope, ctx.channel)
        if record is None:
            raise NoGame("error.game_over" if game_id else "error.no_game")
        if game_id is not None and record.game_id != game_id:
            raise StaleAction()
        await self._check_chips(ctx, record, action)
        return await self._plan(ctx, record, action)

    async def _plan(self, ctx: Context, record: GameRecord, action: Action) -> Plan:
        fair = record.fair_dice
        state, events = apply(record.state, action, fair or self.dice)
        config = await self.server_config(ctx.scope)
        balances = await self._stakers_balances(ctx.scope, (record.state, state), config)
        rated = ratings.rated(state, events, solo=record.solo)
        skills = await self._skills(ctx.scope, [state.seats[i].id for i in rated])
        streak = ""
        if record.challenge and state.over:  # the member's streak goes on with the result
            streak = (await self.store.hash(ctx.scope, STREAKS)).get(ctx.user, "")
        plan = plan_change(
            ctx.scope, record, state, events, balances=balances,
            now=int(self.clock()), request_id=ctx.request_id, start_balance=config.start_chips,
            fair=fair, skills=skills, streak=streak,
        )  # fmt: skip
        stop = audit.admin_stop(ctx, record, action, int(self.clock()))
        plan = replace(plan, commit=replace(plan.commit, ops=(*plan.commit.ops, *stop)))
        # Turn calls (core/service/features/pings.py): the player whose turn it is now.
        call, uncall = await pings.called(self.store, ctx.scope, record, plan.final, config.ping)
        if call is None and not uncall:
            return plan
        reply = replace(plan.reply, call=call, uncall=uncall)
        return replace(plan, reply=reply, commit=replace(plan.commit, result=reply.to_json()))

    async def _skills(self, scope: Scope, users: list[str]) -> dict[str, Skill]:
        """The ratings of the players a finishing match rates (none read otherwise)."""
        if not users:
            return {}
        stored = await self.store.hash(scope, "rating")
        return {u: Skill.from_str(stored[u]) for u in users if u in stored}

    async def _commit(self, scope: Scope, channel: str, plan: Plan) -> Reply | None:
        """Write the plan; None means the game changed meanwhile and the caller should retry."""
        try:
            result = await self.store.commit(plan.commit)
        except OutcomeUnknown:
            return await self._settle_lost(scope, channel, plan)
        if result.status is Status.OK:
            self._remember(scope, channel, plan.record, result)
            if plan.record is None and plan.final.tour:  # a tournament table ended: its round
                reply = await news.after_table(self, scope, plan.final.tour, plan.reply)
                return _with_message(reply, result.message)
            return _with_message(plan.reply, result.message)
        if result.status is Status.DUPLICATE:
            if result.applied_by == plan.commit.attempt:  # redis-py resent it after a lost reply
                self._forget_game_and_chips(scope, channel, plan)
                return _with_message(plan.reply, result.message)
            return Reply.from_json(result.result, replayed=True)
        self._learn(scope, channel, result)
        return None

    async def _settle_lost(self, scope: Scope, channel: str, plan: Plan) -> Reply:
        """The commit's reply was lost: ask Redis what happened before telling the player."""
        self._forget_game_and_chips(scope, channel, plan)
        result = await resolve_lost(self.store, plan.commit, self.resolve_pauses, asyncio.sleep)
        if result.status is not Status.DUPLICATE:
            raise NotApplied()
        if result.applied_by != plan.commit.attempt:  # a retry of the same request got there
            return Reply.from_json(result.result, replayed=True)
        note = t(plan.final.lang, "outcome.applied")
        private = f"{plan.reply.private}\n{note}" if plan.reply.private else note
        return replace(plan.reply, private=private)

    def _forget_game_and_chips(self, scope: Scope, channel: str, plan: Plan) -> None:
        """Drop what a commit of unknown outcome may have changed, so it is read afresh."""
        self._forget(scope, channel)
        for account in plan.commit.report_accounts:
            self._balances(scope).pop(account, None)

    def _remember(
        self, scope: Scope, channel: str, record: GameRecord | None, result: CommitResult
    ) -> None:
        self._balances(scope).update(result.balances)
        if record is None:
            self.games.pop((scope.tag, channel), None)
        else:
            if result.message and result.message != record.message:
                record = record.evolve(message=result.message)
            self.games[(scope.tag, channel)] = record

    def _learn(self, scope: Scope, channel: str, result: CommitResult) -> None:
        """Take in what a refused commit told us, so the retry starts from the truth."""
        self._balances(scope).update(result.balances)
        if result.status is Status.STALE:
            if result.record is None:
                self.games.pop((scope.tag, channel), None)
            else:
                record = GameRecord.from_stored(result.record, channel, result.message)
                self.games[(scope.tag, channel)] = record

    async def _stakers_balances(
        self, scope: Scope, states: tuple[GameState, ...], config: ServerConfig
    ) -> dict[str, int]:
        """Every seated human's balance, read from Redis where this process has none.

        Settlement must never count a balance it did not read: another process may have seated
        the player, and an unknown balance would let them play for the pot without the ante.
        An account Redis does not have yet counts at the start balance the commit gives it.
        """
        known = self._balances(scope)
        if not states[0].config.stakes.staked:
            return known
        players = dict.fromkeys(p for state in states for p in human_ids(state))
        missing = [player for player in players if player not in known]
        if missing:
            found = await self.store.balances(scope, missing)
            known.update({player: found.get(player, config.start_chips) for player in missing})
        return known

    async def _check_chips(self, ctx: Context, record: GameRecord, action: Action) -> None:
        """A player may only join a staked game with enough chips for the ante."""
        stakes = record.state.config.stakes
        if not isinstance(action, Join) or not stakes.staked:
            return
        await self._require_chips(ctx, stakes.amount)

    async def _require_chips(self, ctx: Context, needed: int) -> None:
        balance = await self.balance_of(ctx.scope, ctx.user)
        self._balances(ctx.scope)[ctx.user] = balance
        if balance < needed:
            raise InsufficientChips("error.chips.join", balance=balance, needed=needed)


def _with_message(reply: Reply, message: str) -> Reply:
    """The reply's game view pointing at the game message another process may have posted."""
    if not message or reply.game is None or reply.game.message == message:
        return reply
    return replace(reply, game=replace(reply.game, message=message))
