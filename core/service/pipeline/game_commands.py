"""The handlers of the channel's game: open it, seat and unseat players, begin, end, review.

Each handler takes `(ctx, command)`; the subcommand table (subcommands.py) says which command
each one answers, and `LOBBY_HANDLERS` for the lobby's controls a playground types.
"""

from __future__ import annotations

from core.game import actions
from core.service.api.commands import (
    AddBot,
    Begin,
    Cancel,
    Join,
    Leave,
    Review,
    Solo,
    Start,
    Stop,
)
from core.service.features import reviews
from core.service.model.chips import pot_account
from core.service.model.context import Context
from core.service.model.unreadable import Unreadable
from core.service.model.views import Reply
from core.service.pipeline.bus import Handlers
from core.service.pipeline.opening import Opening
from core.text.i18n import t


class GameCommands(Opening):
    """The handlers of the game commands."""

    async def _start(self, ctx: Context, command: Start) -> Reply:
        return await self._open(ctx, command.options, solo=False)

    async def _solo(self, ctx: Context, command: Solo) -> Reply:
        return await self._open(ctx, command.options, solo=True)

    async def _join(self, ctx: Context, command: Join) -> Reply:
        return await self._act(ctx, actions.Join(ctx.user, name=ctx.name))

    async def _leave(self, ctx: Context, command: Leave) -> Reply:
        return await self._act(ctx, actions.Leave(ctx.user))

    async def _add_bot(self, ctx: Context, command: AddBot) -> Reply:
        return await self._act(ctx, actions.AddBot(ctx.user))

    async def _begin(self, ctx: Context, command: Begin) -> Reply:
        return await self._act(ctx, actions.Begin(ctx.user))

    async def _cancel(self, ctx: Context, command: Cancel) -> Reply:
        return await self._act(ctx, actions.Cancel(ctx.user))

    async def _stop(self, ctx: Context, command: Stop) -> Reply:
        try:
            return await self._act(ctx, actions.Stop(ctx.user, admin=ctx.admin, name=ctx.name))
        except Unreadable as error:
            if not ctx.admin or error.record != f"game:{ctx.channel}":
                raise  # its host can't be read, so only an admin may clear it
            return await self._clear_unreadable(ctx, error)

    async def _clear_unreadable(self, ctx: Context, error: Unreadable) -> Reply:
        """An admin's `stop` of a game that can't be read: the record goes, with its deadline.

        Who paid which ante is in that record, so no chip is moved by guessing: what the
        channel's pot holds stays there, and the answer says how much
        (docs/operate/failures.md).
        """
        self._contained(ctx.scope, error)
        self._forget(ctx.scope, ctx.channel)
        if not await self.store.clear_unreadable_game(ctx.scope, ctx.channel, error.raw):
            return await self._stop(ctx, Stop())  # replaced meanwhile: stop what is there now
        pot = pot_account(ctx.channel)
        try:
            held = (await self.store.balances(ctx.scope, [pot])).get(pot, 0)
        except Unreadable:
            held = 0
        key = "stop.unreadable.pot" if held else "stop.unreadable"
        lang = (await self.server_config(ctx.scope)).lang  # the channel's, as the game spoke
        public = t(lang, "notice.stopped", player=ctx.name)
        return Reply(private=await self.say(ctx, key, chips=held), public=(public,))

    async def _review_last(self, ctx: Context, command: Review) -> Reply:
        """`/shutbox review`: the caller's last finished match here against perfect play."""
        return await self._review(ctx, None)

    async def _review(self, ctx: Context, game: str | None) -> Reply:
        self._forget(ctx.scope, ctx.channel)  # a review reads the game as Redis holds it now
        current = await self._record(ctx.scope, ctx.channel)
        lang = await self.private_lang(ctx)
        text = await reviews.review_reply(self.store, ctx, current, game, lang)
        return Reply(private=text)


# The lobby's buttons as commands (the playground types `bot`, `go`, `cancel`).
LOBBY_HANDLERS: Handlers = {
    AddBot: GameCommands._add_bot, Begin: GameCommands._begin, Cancel: GameCommands._cancel,
}  # fmt: skip
