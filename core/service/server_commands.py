"""Chips, boards, seasons, settings and texts: the commands about a server, not one game.

Mixed into `GameManager`; each runs through its one `handle`, like the game commands.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from core.game.errors import InvalidOption, NotAllowed
from core.service import info, ranks
from core.service.buttons import ButtonId
from core.service.commit import Scope
from core.service.context import Context
from core.service.economy import Economy
from core.service.gifts import Gifts, Recipient
from core.service.ports import GameStore
from core.service.seasons import Seasons
from core.service.settings import ServerConfig
from core.service.views import Reply
from core.text.i18n import t


class ServerCommands:
    """What `GameManager` provides to these methods (it defines every one of them)."""

    store: GameStore
    clock: Callable[[], float]
    balances: dict[str, dict[str, int]]
    configs: dict[str, Any]

    async def handle(
        self,
        ctx: Context,
        work: Callable[[], Awaitable[Reply]],
        *,
        clicked: ButtonId | None = None,
    ) -> Reply:
        raise NotImplementedError

    async def server_config(self, scope: Scope) -> ServerConfig:
        raise NotImplementedError

    async def private_lang(self, ctx: Context) -> str:
        raise NotImplementedError

    def _balances(self, scope: Scope) -> dict[str, int]:
        raise NotImplementedError

    @property
    def economy(self) -> Economy:
        return Economy(self.store, self.clock)

    async def balance(self, ctx: Context) -> Reply:
        return await self.handle(ctx, lambda: self._with_lang(ctx, self.economy.balance))

    async def daily(self, ctx: Context) -> Reply:
        return await self.handle(ctx, lambda: self._with_lang(ctx, self.economy.daily))

    async def grant(self, ctx: Context, target: str, name: str, amount: int) -> Reply:
        async def work() -> Reply:
            config, lang = await self.server_config(ctx.scope), await self.private_lang(ctx)
            reply = await self.economy.grant(ctx, config, target, name, amount, lang)
            self._balances(ctx.scope).pop(target, None)
            return reply

        return await self.handle(ctx, work)

    async def give(self, ctx: Context, recipient: Recipient, amount: int) -> Reply:
        """`/shutbox give @user N`: pay some of the caller's own chips to another member."""

        async def work() -> Reply:
            config, lang = await self.server_config(ctx.scope), await self.private_lang(ctx)
            gifts = Gifts(self.store, self.clock)
            reply = await gifts.give(ctx, recipient, amount, config.start_chips, lang, config.lang)
            for account in (ctx.user, recipient.id):
                self._balances(ctx.scope).pop(account, None)
            return reply

        return await self.handle(ctx, work)

    async def leaderboard(
        self, ctx: Context, board: str = "wins", preset: str | None = None,
        season: int | None = None, page: int = 0,
    ) -> Reply:  # fmt: skip
        """`/shutbox leaderboard [board] [preset] [season=N]`: N reads an ended season; `page`
        counts from 0 (surfaces without buttons ask for a page by number)."""
        return await self.handle(ctx, lambda: self._board(ctx, board, preset, page, season))

    async def _board(
        self, ctx: Context, board: str, preset: str | None, page: int, season: int | None = None
    ) -> Reply:
        config = await self.server_config(ctx.scope)
        ended = await self.seasons.tick(ctx.scope, config)
        if season is not None:
            await self.seasons.check_archived(ctx.scope, season)
        reply = await self.economy.leaderboard(
            ctx.scope, board, preset, config.lang, ctx.user, page, season
        )
        return _announced(reply, ended)

    async def rank(self, ctx: Context, user: str | None = None, name: str | None = None) -> Reply:
        """`/shutbox rank [@user]`: the player's position on every board."""

        async def work() -> Reply:
            config = await self.server_config(ctx.scope)
            ended = await self.seasons.tick(ctx.scope, config)
            reply = await ranks.rank_reply(
                self.economy, ctx, user or ctx.user, name or ctx.name, config.lang
            )
            return _announced(reply, ended)

        return await self.handle(ctx, work)

    async def stats(self, ctx: Context, user: str | None = None, name: str | None = None) -> Reply:
        async def work() -> Reply:
            config = await self.server_config(ctx.scope)
            ended = await self.seasons.tick(ctx.scope, config)
            target, shown = (user, name or user) if user else (ctx.user, ctx.name)
            reply = await self.economy.stats(ctx.scope, target, shown, config, config.lang)
            return _announced(reply, ended)

        return await self.handle(ctx, work)

    @property
    def seasons(self) -> Seasons:
        return Seasons(self.store.seasons, self.clock)

    async def season(self, ctx: Context, end: bool = False, reset_chips: bool = False) -> Reply:
        """`/shutbox season`: the current season; `season end [reset_chips=yes]` (admins) ends
        it, archiving the boards and ratings."""

        async def work() -> Reply:
            config = await self.server_config(ctx.scope)
            if reset_chips and not end:
                raise InvalidOption("error.season.reset_needs_end")
            if not end:
                ended = await self.seasons.tick(ctx.scope, config)
                return _announced(await self.seasons.show(ctx.scope, config.lang), ended)
            reply = await self.seasons.end(ctx, config, await self.private_lang(ctx), reset_chips)
            self.balances.pop(ctx.scope.tag, None)  # accounts may be gone: read them afresh
            return reply

        return await self.handle(ctx, work)

    async def configure(self, ctx: Context, changes: dict[str, str]) -> Reply:
        """`/shutbox config [key=value ...]`: admins change settings; anyone may look."""

        async def work() -> Reply:
            config = await self.server_config(ctx.scope)
            if changes and not ctx.admin:
                raise NotAllowed("error.admin_only")
            for key, value in changes.items():
                config = config.updated(key, value)
            if changes:
                await self.store.set_fields(ctx.scope, "cfg", config.to_fields())
                self.configs.pop(ctx.scope.tag, None)
            lang = ctx.locale or config.lang
            listing = ", ".join(f"{k}={v}" for k, v in config.to_fields().items())
            key = "config.saved" if changes else "config.current"
            return Reply(private=t(lang, key, settings=listing))

        return await self.handle(ctx, work)

    async def rules(self, ctx: Context, preset: str | None = None) -> Reply:
        return await self.handle(
            ctx, lambda: self._text(ctx, lambda lang: info.rules_reply(preset, lang))
        )

    async def odds(self, ctx: Context, preset: str | None = None) -> Reply:
        return await self.handle(
            ctx, lambda: self._text(ctx, lambda lang: info.odds_text(preset, lang))
        )

    async def help(self, ctx: Context) -> Reply:
        return await self.handle(ctx, lambda: self._text(ctx, info.help_text))

    async def _text(self, ctx: Context, build: Callable[[str], str]) -> Reply:
        return Reply(private=build(await self.private_lang(ctx)))

    async def _with_lang(
        self, ctx: Context, command: Callable[[Context, ServerConfig, str], Awaitable[Reply]]
    ) -> Reply:
        config = await self.server_config(ctx.scope)
        return await command(ctx, config, ctx.locale or config.lang)


def _announced(reply: Reply, ended: tuple[str, ...]) -> Reply:
    """The reply with the announcement of a season that just ended by itself before it."""
    return replace(reply, public=(*ended, *reply.public)) if ended else reply
