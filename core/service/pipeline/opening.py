"""Opening a game: a new lobby (`start`), a solo game begun at once, and a rematch."""

from __future__ import annotations

from dataclasses import replace

from core.game.actions import Action, AddBot, Begin
from core.game.dice import new_fair_dice
from core.game.engine import apply, new_game
from core.game.errors import IllegalMove, NotAllowed
from core.game.match import MatchConfig
from core.game.settlement import Pot
from core.game.state import GameState, Phase
from core.service.features import rematch
from core.service.model.chips import pot_account
from core.service.model.context import Context
from core.service.model.record import GameRecord, new_game_id
from core.service.model.settings import ServerConfig, StartOptions
from core.service.model.views import Reply
from core.service.pipeline.commit_loop import MAX_ATTEMPTS, CommitLoop
from core.service.pipeline.game_commit import plan_change
from core.text.i18n import t


class Opening(CommitLoop):
    """New games: a lobby, a solo game begun at once, a rematch of the last match."""

    async def _open(self, ctx: Context, options: StartOptions, *, solo: bool) -> Reply:
        server = await self.server_config(ctx.scope)
        config = options.config(server, solo=solo)
        if ctx.direct and not solo:
            raise IllegalMove("error.direct_solo_only")
        self._forget(ctx.scope, ctx.channel)  # another process may have ended the cached game
        running = await self._record(ctx.scope, ctx.channel)
        if running is not None:
            raise IllegalMove(_open_here(running.state, ctx.user), host=running.state.host.name)
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
            lang=server.lang, style=self.board_style(ctx.scope, server.style),
            pot=Pot(pot_account(ctx.channel)),
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
        for _ in range(MAX_ATTEMPTS):
            balances = await self._stakers_balances(ctx.scope, (state,), server)
            plan = plan_change(
                ctx.scope, record, state, events, balances=balances,
                now=int(self.clock()), request_id=ctx.request_id,
                start_balance=server.start_chips, fair=fair, creating=True,
            )  # fmt: skip
            reply = await self._commit(ctx.scope, ctx.channel, plan)
            if reply is not None:
                return reply
            if (ctx.scope.tag, ctx.channel) in self.games:  # another game got there first
                break
            # A balance changed under the first ante: plan again on the ones returned.
        raise IllegalMove("error.already_running", host="?")

    async def _rematch(self, ctx: Context, game: str) -> Reply:
        """A new lobby with the settings of match `game`, the presser as host, its bots seated
        again and its other players called; a game already open here is pointed to instead."""
        server, lang = await self.server_config(ctx.scope), await self.private_lang(ctx)
        self._forget(ctx.scope, ctx.channel)
        running = await self._record(ctx.scope, ctx.channel)
        if running is not None:
            return Reply(private=t(lang, "rematch.running", host=running.state.host.name))
        stored = (await self.store.hash(ctx.scope, f"rematch:{ctx.channel}")).get(rematch.FIELD)
        if stored is None:  # kept by an older version, in one hash for every channel
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
        others = [rematch.mention(ctx, u, n) for u, n in last.humans if u != ctx.user]
        if not others:
            return reply
        call = t(server.lang, "rematch.call", host=ctx.name, players=", ".join(others))
        return replace(reply, public=(*reply.public, call))


def _open_here(state: GameState, user: str) -> str:
    """Why no game opens: a lobby to join (or already joined), or a game being played."""
    if state.phase is not Phase.LOBBY:
        return "error.already_running"
    return "error.lobby_open_seated" if state.seat_of(user) is not None else "error.lobby_open"
