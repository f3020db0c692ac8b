"""The GameManager: the one API every surface calls, for every command and button (SPEC 3-6).

It owns concurrency. A click is applied to the cached game (or one loaded from Redis), and the
result is written by one atomic commit that checks the version and records the request id; when
another process got there first the commit says so and the click is tried again on fresh state.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from core.game.actions import (
    Action,
    AddBot,
    Begin,
    Cancel,
    Choose,
    Join,
    Leave,
    Roll,
    Stop,
    Timeout,
)
from core.game.dice import DiceSource, SecureDice, new_fair_dice
from core.game.engine import apply, new_game
from core.game.errors import (
    IllegalMove,
    InsufficientChips,
    NoGame,
    NotAllowed,
    NotYourTurn,
    ShutboxError,
    StaleAction,
)
from core.game.match import MatchConfig
from core.game.settlement import Pot
from core.game.state import GameState
from core.service import hints, present, ratings, rematch, reviews
from core.service.buttons import ButtonId, parse_button
from core.service.commit import CommitResult, Scope, Status
from core.service.context import Context
from core.service.economy import board_of
from core.service.game_commit import Plan, human_ids, plan_change
from core.service.outcomes import NotApplied, resolve_lost
from core.service.ports import GameStore, OutcomeUnknown, StoreUnavailable
from core.service.projection import Projection
from core.service.record import GameRecord, new_game_id
from core.service.server_commands import ServerCommands
from core.service.settings import ServerConfig, StartOptions
from core.service.views import Reply
from core.text.i18n import t

MAX_ATTEMPTS = 5
CONFIG_TTL = 30.0  # seconds a server's settings are cached in the process
SWEEP_CLOCK = "clock"


class Busy(ShutboxError):
    """The game kept changing under this click; the user may simply try again."""

    key = "error.busy"


@dataclass(slots=True)
class _Cached:
    config: ServerConfig
    loaded: float


@dataclass(slots=True)
class GameManager(Projection, ServerCommands):
    """Platform-neutral: adapters build a `Context` and render the returned `Reply`."""

    store: GameStore
    clock: Callable[[], float] = time.time
    dice: DiceSource = field(default_factory=SecureDice)
    games: dict[tuple[str, str], GameRecord] = field(default_factory=dict)
    balances: dict[str, dict[str, int]] = field(default_factory=dict)
    configs: dict[str, _Cached] = field(default_factory=dict)
    # Channels whose last commit's outcome stayed unknown: the sweep shows them once it can.
    unsettled: set[tuple[Scope, str]] = field(default_factory=set)
    resolve_pauses: tuple[float, ...] = (0.1, 0.3, 0.6, 1.0, 2.0, 2.0, 2.0)

    # -- entry points -------------------------------------------------------------------

    async def handle(
        self,
        ctx: Context,
        work: Callable[[], Awaitable[Reply]],
        *,
        clicked: ButtonId | None = None,
    ) -> Reply:
        """Run one command; any user error becomes a private, translated reply.

        The reply's game view always shows the game as Redis holds it: a repeated delivery and
        a click refused on an outdated message both bring the game message up to date.
        """
        if ctx.request_id is None:  # every commit needs one to be found again after a lost reply
            ctx = replace(ctx, request_id=f"local:{secrets.token_hex(8)}")
        try:
            reply = await work()
        except OutcomeUnknown as lost:
            reply = await self._still_unknown(ctx, lost)
        except ShutboxError as error:
            first = await self._first_result(ctx, error)
            reply = first or Reply(private=await self.say(ctx, error.key, **error.params))
            if first is None and clicked is not None:
                reply = await self._refreshed(ctx, clicked, reply)
        if reply.replayed:
            reply = await self._as_stored_now(ctx, reply)
        return replace(reply, announce=reply.announce or ctx.request_id)

    async def _first_result(self, ctx: Context, error: ShutboxError) -> Reply | None:
        """A repeated delivery of a request another process applied first gets its first result.

        The repeat usually fails on its own (its message is now outdated) before it ever reaches
        the commit script that would have recognised it, so look the request id up here.
        """
        if ctx.request_id is None or isinstance(error, StoreUnavailable):
            return None
        try:
            stored = await self.store.request_result(ctx.scope, ctx.request_id)
        except StoreUnavailable:
            return None
        return Reply.from_json(stored, replayed=True) if stored else None

    async def click(self, ctx: Context, button: str) -> Reply:
        """A button press: `stb:<verb>:<game>:<version>:<arg>`."""
        try:
            parsed = parse_button(button)
        except ShutboxError as error:
            return await self.handle(ctx, _raise(error))
        return await self.handle(ctx, lambda: self._click(ctx, parsed), clicked=parsed)

    async def _click(self, ctx: Context, button: ButtonId) -> Reply:
        if button.verb == "hint":
            return await self._hint(ctx, button)
        if button.verb == "page":
            return await self._page(ctx, button)
        if button.verb == "review":
            return await self._review(ctx, button.game)
        if button.verb == "rematch":
            return await self._rematch(ctx, button.game)
        if button.verb == "board":
            preset, season = board_of(button.version)
            return await self._board(ctx, button.game, preset, button.arg, season)
        make = _BUTTON_ACTIONS[button.verb]
        return await self._act(ctx, lambda record: make(ctx, button), game_id=button.game)

    # -- lobby and game commands ----------------------------------------------------------

    async def start(self, ctx: Context, options: StartOptions) -> Reply:
        return await self.handle(ctx, lambda: self._open(ctx, options, solo=False))

    async def solo(self, ctx: Context, options: StartOptions) -> Reply:
        return await self.handle(ctx, lambda: self._open(ctx, options, solo=True))

    async def join(self, ctx: Context) -> Reply:
        return await self.handle(
            ctx, lambda: self._act(ctx, lambda r: Join(ctx.user, name=ctx.name))
        )

    async def leave(self, ctx: Context) -> Reply:
        return await self.handle(ctx, lambda: self._act(ctx, lambda r: Leave(ctx.user)))

    async def add_bot(self, ctx: Context) -> Reply:
        return await self.handle(ctx, lambda: self._act(ctx, lambda r: AddBot(ctx.user)))

    async def begin(self, ctx: Context) -> Reply:
        return await self.handle(ctx, lambda: self._act(ctx, lambda r: Begin(ctx.user)))

    async def cancel(self, ctx: Context) -> Reply:
        return await self.handle(ctx, lambda: self._act(ctx, lambda r: Cancel(ctx.user)))

    async def stop(self, ctx: Context) -> Reply:
        return await self.handle(
            ctx, lambda: self._act(ctx, lambda r: Stop(ctx.user, admin=ctx.admin))
        )

    async def current(self, ctx: Context) -> GameRecord | None:
        """The channel's running game, if any (adapters use it to find the game message)."""
        return await self._record(ctx.scope, ctx.channel)

    async def attach_message(self, ctx: Context, message: str) -> None:
        """Remember the platform's id of the game message so it can be edited after a restart."""
        if await self.store.attach(ctx.scope, ctx.channel, message):
            record = self.games.get((ctx.scope.tag, ctx.channel))
            if record is not None:
                self.games[(ctx.scope.tag, ctx.channel)] = record.evolve(message=message)

    # -- the commit loop ------------------------------------------------------------------

    async def _act(
        self, ctx: Context, make: Callable[[GameRecord], Action], game_id: str | None = None
    ) -> Reply:
        """Apply an action to the channel's game and commit it, retrying on a lost race."""
        for _ in range(MAX_ATTEMPTS):
            cached = (ctx.scope.tag, ctx.channel) in self.games
            try:
                plan = await self._prepare(ctx, make, game_id)
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

    async def _prepare(
        self, ctx: Context, make: Callable[[GameRecord], Action], game_id: str | None
    ) -> Plan:
        record = await self._record(ctx.scope, ctx.channel)
        if record is None:
            raise NoGame("error.game_over" if game_id else "error.no_game")
        if game_id is not None and record.game_id != game_id:
            raise StaleAction()
        action = make(record)
        await self._check_chips(ctx, record, action)
        return await self._plan(ctx, record, action)

    async def _plan(self, ctx: Context, record: GameRecord, action: Action) -> Plan:
        fair = record.fair_dice
        state, events = apply(record.state, action, fair or self.dice)
        config = await self.server_config(ctx.scope)
        balances = await self._stakers_balances(ctx.scope, (record.state, state), config)
        rated = ratings.rated(state, events, solo=record.solo)
        skills = await self._skills(ctx.scope, [state.seats[i].id for i in rated])
        return plan_change(
            ctx.scope, record, state, events, balances=balances,
            now=int(self.clock()), request_id=ctx.request_id, start_balance=config.start_chips,
            fair=fair, skills=skills,
        )  # fmt: skip

    async def _skills(self, scope: Scope, users: list[str]) -> dict[str, ratings.Skill]:
        """The ratings of the players a finishing match rates (none read otherwise)."""
        if not users:
            return {}
        stored = await self.store.hash(scope, "rating")
        return {u: ratings.Skill.from_str(stored[u]) for u in users if u in stored}

    async def _commit(self, scope: Scope, channel: str, plan: Plan) -> Reply | None:
        """Write the plan; None means the game changed meanwhile and the caller should retry."""
        try:
            result = await self.store.commit(plan.commit)
        except OutcomeUnknown:
            return await self._settle_lost(scope, channel, plan)
        if result.status is Status.OK:
            self._remember(scope, channel, plan.record, result)
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
                record = GameRecord.from_stored(result.record, result.message)
                self.games[(scope.tag, channel)] = record

    def _forget(self, scope: Scope, channel: str) -> None:
        self.games.pop((scope.tag, channel), None)

    def _balances(self, scope: Scope) -> dict[str, int]:
        return self.balances.setdefault(scope.tag, {})

    async def _record(self, scope: Scope, channel: str) -> GameRecord | None:
        """The cached game, else one read from Redis (with its players' balances)."""
        record = self.games.get((scope.tag, channel))
        if record is not None:
            return record
        stored, _ = await self.store.load_with_balances(scope, channel, [])
        if stored is None:
            return None
        record = GameRecord.from_stored(stored.record, stored.message)
        known = self._balances(scope)
        missing = [p for p in human_ids(record.state) if p not in known]
        if missing and record.state.config.stakes.staked:
            known.update(await self.store.balances(scope, missing))
        self.games[(scope.tag, channel)] = record
        return record

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

    async def balance_of(self, scope: Scope, user: str) -> int:
        found = await self.store.balances(scope, [user])
        if user in found:
            return found[user]
        return (await self.server_config(scope)).start_chips

    # -- opening a game -------------------------------------------------------------------

    async def _open(self, ctx: Context, options: StartOptions, *, solo: bool) -> Reply:
        server = await self.server_config(ctx.scope)
        config = options.config(server, solo=solo)
        if ctx.direct and not solo:
            raise IllegalMove("error.direct_solo_only")
        self._forget(ctx.scope, ctx.channel)  # another process may have ended the cached game
        running = await self._record(ctx.scope, ctx.channel)
        if running is not None:
            raise IllegalMove("error.already_running", host=running.state.host.name)
        if config.stakes.staked:
            await self._require_chips(ctx, config.stakes.amount)
        record = self._new_record(
            ctx, config, server, solo=solo, fair=bool(options.fair or server.fair)
        )
        actions: list[Action] = [Begin(ctx.user)] if solo else []
        return await self._create(ctx, record, actions, server)

    def _new_record(
        self, ctx: Context, config: MatchConfig, server: ServerConfig, *, solo: bool, fair: bool
    ) -> GameRecord:
        game_id = new_game_id()
        return GameRecord(
            state=new_game(config, ctx.user, ctx.name), channel=ctx.channel, game_id=game_id,
            lang=server.lang, style=server.style, pot=Pot(f"pot:{ctx.channel}"),
            fair=new_fair_dice(f"{ctx.channel}:{game_id}").to_str() if fair else "",
            created=int(self.clock()), solo=solo,
        )  # fmt: skip

    async def _create(
        self, ctx: Context, record: GameRecord, actions: list[Action], server: ServerConfig
    ) -> Reply:
        state, events = record.state, []
        fair = record.fair_dice
        for action in actions:
            state, more = apply(state, action, fair or self.dice)
            events += more
        balances = await self._stakers_balances(ctx.scope, (state,), server)
        plan = plan_change(
            ctx.scope, record, state, events, balances=balances,
            now=int(self.clock()), request_id=ctx.request_id, start_balance=server.start_chips,
            fair=fair, creating=True,
        )  # fmt: skip
        reply = await self._commit(ctx.scope, ctx.channel, plan)
        if reply is None:
            raise IllegalMove("error.already_running", host="?")
        return reply

    async def _rematch(self, ctx: Context, game: str) -> Reply:
        """A new lobby with the settings of match `game`, the presser as host, its bots seated
        again and its other players called; a game already open here is pointed to instead."""
        server, lang = await self.server_config(ctx.scope), await self.private_lang(ctx)
        self._forget(ctx.scope, ctx.channel)
        running = await self._record(ctx.scope, ctx.channel)
        if running is not None:
            return Reply(private=t(lang, "rematch.running", host=running.state.host.name))
        stored = (await self.store.hash(ctx.scope, "rematch")).get(ctx.channel)
        last = rematch.LastMatch.from_str(stored) if stored else None
        if last is None or last.game_id != game:
            raise IllegalMove("error.rematch.gone")
        if not last.played(ctx.user):
            raise NotAllowed("error.rematch.not_played")
        if last.config.stakes.staked:
            await self._require_chips(ctx, last.config.stakes.amount)
        record = self._new_record(ctx, last.config, server, solo=last.solo, fair=last.fair)
        actions: list[Action] = [AddBot(ctx.user) for _ in range(last.bots)]
        try:
            reply = await self._create(ctx, record, actions + [Begin(ctx.user)] * last.solo, server)
        except IllegalMove as lost:  # another press opened the rematch a moment earlier
            running = await self._record(ctx.scope, ctx.channel)
            if lost.key != "error.already_running" or running is None:
                raise
            return Reply(private=t(lang, "rematch.running", host=running.state.host.name))
        others = [rematch.mention(ctx.scope, u, n) for u, n in last.humans if u != ctx.user]
        if not others:
            return reply
        call = t(server.lang, "rematch.call", host=ctx.name, players=", ".join(others))
        return replace(reply, public=(*reply.public, call))

    # -- hints and pages ------------------------------------------------------------------

    async def _hint(self, ctx: Context, button: ButtonId) -> Reply:
        record = await self._turn_record(ctx, button)
        lang = await self.private_lang(ctx)
        return Reply(private=hints.hint_text(record.state, lang))

    async def _page(self, ctx: Context, button: ButtonId) -> Reply:
        record = await self._turn_record(ctx, button)
        return Reply(game=present.game_view(record, page=button.arg))

    async def review(self, ctx: Context) -> Reply:
        """`/shutbox review`: the caller's last finished match here against perfect play."""
        return await self.handle(ctx, lambda: self._review(ctx, None))

    async def _review(self, ctx: Context, game: str | None) -> Reply:
        self._forget(ctx.scope, ctx.channel)  # a review reads the game as Redis holds it now
        current = await self._record(ctx.scope, ctx.channel)
        lang = await self.private_lang(ctx)
        text = await reviews.review_reply(self.store, ctx, current, game, lang)
        return Reply(private=text)

    async def _turn_record(self, ctx: Context, button: ButtonId) -> GameRecord:
        """The game a turn button belongs to, after checking the clicker is the player to act.

        Hints and pages commit nothing, so no version check would catch a stale cache: read the
        game afresh (one round trip) before answering.
        """
        self._forget(ctx.scope, ctx.channel)
        return await self._check_turn(ctx, button)

    async def _check_turn(self, ctx: Context, button: ButtonId) -> GameRecord:
        record = await self._record(ctx.scope, ctx.channel)
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

    # -- timers ---------------------------------------------------------------------------

    async def sweep(
        self, platform: str | None = None, owns: Callable[[Scope], bool] | None = None
    ) -> list[tuple[Scope, Reply]]:
        """Apply every passed deadline (any process may sweep; the commit makes it safe).

        Reads only the servers with a deadline due (core/store/deadlines.py), of `platform` and,
        when
        given, those `owns` accepts (e.g. the guilds of this process's Discord shards).
        Also shows the games whose last commit had an unknown outcome, once Redis answers.
        """
        now = int(self.clock())
        replies = await self._settled_views(platform)
        for scope in await self.store.due_servers(now):
            if platform is not None and scope.platform != platform:
                continue
            if owns is None or owns(scope):
                replies.extend((scope, reply) for reply in await self._sweep_server(scope, now))
        return replies

    async def _sweep_server(self, scope: Scope, now: int) -> list[Reply]:
        """Expire the server's due channels, then move its index entry on to what is next."""
        # Read the epoch before the deadlines: see core/store/deadlines.py.
        epoch = await self.store.due_epoch(scope)
        replies = []
        for channel in await self.store.due(scope, now):
            reply = await self._expire(scope, channel, now)
            if reply is not None:
                replies.append(reply)
        await self.store.swept(scope, epoch)
        return replies

    async def _expire(self, scope: Scope, channel: str, now: int) -> Reply | None:
        self._forget(scope, channel)  # another process may have moved the game on
        record = await self._record(scope, channel)
        if record is None or not record.deadline or record.deadline > now:
            return None
        request = f"timeout:{record.game_id}:{record.version}"
        ctx = Context(scope, channel, SWEEP_CLOCK, SWEEP_CLOCK, request_id=request)
        try:
            reply = await self._act(ctx, lambda r: Timeout(SWEEP_CLOCK, version=record.version))
        except OutcomeUnknown:
            self.unsettled.add((scope, channel))
            return None
        except ShutboxError:
            return None  # a click won the race: the timeout no longer applies
        # Another process applied this deadline first: it shows and announces it.
        return None if reply.replayed else replace(reply, announce=request)

    # -- languages and settings -----------------------------------------------------------

    async def server_config(self, scope: Scope) -> ServerConfig:
        cached = self.configs.get(scope.tag)
        if cached is not None and self.clock() - cached.loaded < CONFIG_TTL:
            return cached.config
        config = ServerConfig.from_fields(await self.store.hash(scope, "cfg"))
        self.configs[scope.tag] = _Cached(config, self.clock())
        return config

    async def private_lang(self, ctx: Context) -> str:
        """The user's own locale where the platform gives one, else the server's language."""
        if ctx.locale:
            return ctx.locale
        try:
            return (await self.server_config(ctx.scope)).lang
        except StoreUnavailable:
            return "en"

    async def say(self, ctx: Context, key: str, /, **params: object) -> str:
        return t(await self.private_lang(ctx), key, **params)


def _with_message(reply: Reply, message: str) -> Reply:
    """The reply's game view pointing at the game message another process may have posted."""
    if not message or reply.game is None or reply.game.message == message:
        return reply
    return replace(reply, game=replace(reply.game, message=message))


def _raise(error: ShutboxError) -> Callable[[], Awaitable[Reply]]:
    async def work() -> Reply:
        raise error

    return work


def _join(ctx: Context, button: ButtonId) -> Action:
    return Join(ctx.user, version=None, name=ctx.name)


_BUTTON_ACTIONS: dict[str, Callable[[Context, ButtonId], Action]] = {
    "join": _join,
    "leave": lambda ctx, b: Leave(ctx.user),
    "bot": lambda ctx, b: AddBot(ctx.user),
    "begin": lambda ctx, b: Begin(ctx.user),
    "cancel": lambda ctx, b: Cancel(ctx.user),
    "roll": lambda ctx, b: Roll(ctx.user, version=b.version, count=b.arg),
    "choose": lambda ctx, b: Choose(ctx.user, version=b.version, tiles=b.arg),
}
