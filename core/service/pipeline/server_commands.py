"""Chips, boards, seasons, settings and texts: the commands about a server, not one game.

Each handler takes `(ctx, command)`; the subcommand table (subcommands.py) says which command
each one answers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from core.game.errors import InvalidOption, NotAllowed
from core.service.api.commands import (
    Audit,
    Balance,
    Configure,
    Daily,
    Give,
    Grant,
    Leaderboard,
    Odds,
    Rank,
    Rules,
    Season,
    Stats,
)
from core.service.features import audit, info, ranks
from core.service.features.audit import Action, AuditEntry, audit_op, read_entries
from core.service.features.economy import Economy
from core.service.features.gifts import Gifts, Recipient
from core.service.features.seasons import Seasons
from core.service.model.commit import Commit, OpKind, StoreOp
from core.service.model.context import Context
from core.service.model.settings import ServerConfig
from core.service.model.views import Reply
from core.service.pipeline.challenge_commands import ChallengeCommands
from core.text.i18n import t


class ServerCommands(ChallengeCommands):
    """The handlers of the commands about a server."""

    @property
    def economy(self) -> Economy:
        return Economy(self.store, self.clock)

    @property
    def seasons(self) -> Seasons:
        return Seasons(self.store.seasons, self.clock)

    async def _balance(self, ctx: Context, command: Balance) -> Reply:
        return await self._with_lang(ctx, self.economy.balance)

    async def _daily(self, ctx: Context, command: Daily) -> Reply:
        return await self._with_lang(ctx, self.economy.daily)

    async def _grant(self, ctx: Context, command: Grant) -> Reply:
        config, lang = await self.server_config(ctx.scope), await self.private_lang(ctx)
        target = Recipient(command.target, command.name, command.standing)
        reply = await self.economy.grant(ctx, config, target, command.amount, lang)
        self._balances(ctx.scope).pop(command.target, None)
        return reply

    async def _give(self, ctx: Context, command: Give) -> Reply:
        """`/shutbox give @user N`: pay some of the caller's own chips to another member."""
        config, lang = await self.server_config(ctx.scope), await self.private_lang(ctx)
        gifts = Gifts(self.store, self.clock)
        reply = await gifts.give(
            ctx, command.recipient, command.amount, config.start_chips, lang, config.lang
        )
        for account in (ctx.user, command.recipient.id):
            self._balances(ctx.scope).pop(account, None)
        return reply

    async def _leaderboard(self, ctx: Context, command: Leaderboard) -> Reply:
        """`/shutbox leaderboard [board] [preset] [season=N]`: N reads an ended season; `page`
        counts from 0 (surfaces without buttons ask for a page by number)."""
        return await self._board(ctx, command.board, command.preset, command.page, command.season)

    async def _board(
        self, ctx: Context, board: str, preset: str | None, page: int, season: int | None = None
    ) -> Reply:
        if board == "challenge" and season is None and preset is None:
            return await self._challenge_board(ctx)
        config = await self.server_config(ctx.scope)
        ended = await self.seasons.tick(ctx.scope, config)
        if season is not None:
            await self.seasons.check_archived(ctx.scope, season)
        reply = await self.economy.leaderboard(
            ctx.scope, board, preset, config.lang, ctx.user, page, season
        )
        return _announced(reply, ended)

    async def _rank(self, ctx: Context, command: Rank) -> Reply:
        """`/shutbox rank [@user]`: the player's position on every board."""
        config = await self.server_config(ctx.scope)
        ended = await self.seasons.tick(ctx.scope, config)
        user, name = command.user or ctx.user, command.name or ctx.name
        reply = await ranks.rank_reply(self.economy, ctx, user, name, config.lang)
        return _announced(reply, ended)

    async def _stats(self, ctx: Context, command: Stats) -> Reply:
        config = await self.server_config(ctx.scope)
        ended = await self.seasons.tick(ctx.scope, config)
        user = command.user
        target, shown = (user, command.name or user) if user else (ctx.user, ctx.name)
        season = None
        if not command.all_time:
            number = await self.seasons.store.number(ctx.scope)  # a read: starts nothing
            season = (number, await self.seasons.stats(ctx.scope, target))
        reply = await self.economy.stats(
            ctx.scope, target, shown, config, config.lang, season, someone_else=target != ctx.user
        )
        challenge = await self.challenge_stats(ctx, target, config.lang)
        if challenge:
            reply = replace(reply, public=("\n".join((*reply.public, *challenge)),))
        return _announced(reply, ended)

    async def _season(self, ctx: Context, command: Season) -> Reply:
        """`/shutbox season`: the current season; `season end [reset_chips=yes]` (admins) ends
        it, archiving the boards and ratings."""
        config = await self.server_config(ctx.scope)
        if command.reset_chips is not None and not command.end:
            raise InvalidOption("error.season.reset_needs_end")
        if not command.end:
            ended = await self.seasons.tick(ctx.scope, config)
            return _announced(await self.seasons.show(ctx.scope, config.lang), ended)
        lang = await self.private_lang(ctx)
        reply = await self.seasons.end(ctx, config, lang, bool(command.reset_chips))
        self.balances.pop(ctx.scope.tag, None)  # accounts may be gone: read them afresh
        return reply

    async def _configure(self, ctx: Context, command: Configure) -> Reply:
        """`/shutbox config [key=value ...]`: admins change settings; anyone may look."""
        changes = command.changes
        if changes and not ctx.admin:
            raise NotAllowed("error.admin_only")
        if changes:  # the old values an audit entry shows are Redis's, not this process's cache
            self.configs.pop(ctx.scope.tag, None)
        config = before = await self.server_config(ctx.scope)
        for key, value in changes.items():
            config = config.updated(key, value)
        if changes:
            await self._save_config(ctx, before, config)
        lang = ctx.locale or config.lang
        listing = ", ".join(f"{k}={v}" for k, v in config.to_fields().items())
        key = "config.saved" if changes else "config.current"
        text = t(lang, key, settings=listing)
        if self.board_style(ctx.scope, config.style) != config.style:
            note = self.picture_notes.get(ctx.scope.platform, "config.no_pictures")
            text += "\n" + t(lang, note)
        return Reply(private=text)

    async def _save_config(self, ctx: Context, before: ServerConfig, after: ServerConfig) -> None:
        """The new settings and the audit entry of what changed (old → new), in one commit."""
        old, new = before.to_fields(), after.to_fields()
        changed = {key: [old[key], value] for key, value in new.items() if old[key] != value}
        entry = AuditEntry(int(self.clock()), ctx.user, ctx.name, Action.CONFIG, detail=changed)
        fields = [StoreOp(OpKind.HSET, "cfg", key, value) for key, value in new.items()]
        recorded = (audit_op(entry),) if changed else ()
        await self.store.commit(Commit(ctx.scope, request_id=ctx.request_id,
                                       ops=(*fields, *recorded)))  # fmt: skip
        self.configs.pop(ctx.scope.tag, None)

    async def _audit(self, ctx: Context, command: Audit) -> Reply:
        """`/shutbox audit` (admins): the latest admin actions, privately."""
        if not ctx.admin:
            raise NotAllowed("error.admin_only")
        stored = await self.store.admin.audit_entries(ctx.scope, audit.SHOWN)
        return Reply(private=audit.listing(read_entries(stored), await self.private_lang(ctx)))

    async def _rules(self, ctx: Context, command: Rules) -> Reply:
        return Reply(private=info.rules_reply(command.preset, await self.private_lang(ctx)))

    async def _odds(self, ctx: Context, command: Odds) -> Reply:
        return Reply(private=info.odds_text(command.preset, await self.private_lang(ctx)))

    async def _with_lang(
        self, ctx: Context, command: Callable[[Context, ServerConfig, str], Awaitable[Reply]]
    ) -> Reply:
        config = await self.server_config(ctx.scope)
        return await command(ctx, config, ctx.locale or config.lang)


def _announced(reply: Reply, ended: tuple[str, ...]) -> Reply:
    """The reply with the announcement of a season that just ended by itself before it."""
    return replace(reply, public=(*ended, *reply.public)) if ended else reply
