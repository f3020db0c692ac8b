"""One parsed `/shutbox` command as the one manager call that does it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.commands import (
    Command,
    Configure,
    Give,
    Grant,
    Info,
    Leaderboard,
    Mention,
    Open,
    Plain,
    Rank,
    Season,
    Stats,
)
from adapters.slack.members import Member, Members
from adapters.slack.texts import options_help
from core.service.context import Context
from core.service.gifts import Recipient
from core.service.manager import GameManager
from core.service.views import Reply


@dataclass(frozen=True, slots=True)
class Dispatch:
    manager: GameManager
    members: Members

    async def run(self, ctx: Context, command: Command, client: AsyncWebClient) -> Reply:
        """The manager call for one parsed command."""
        manager = self.manager
        match command:
            case Open(options=options, solo=True):
                return await manager.solo(ctx, options)
            case Open(options=options):
                return await manager.start(ctx, options)
            case Plain(name="help"):
                return await self._help(ctx)
            case Plain(name=name):
                return await self._plain(name)(ctx)
            case Leaderboard(board=board, preset=preset, season=season):
                return await manager.leaderboard(ctx, board, preset, season)
            case Season(end=end, reset_chips=reset_chips):
                return await manager.season(ctx, end, reset_chips)
            case Stats(target=None):
                return await manager.stats(ctx)
            case Stats(target=Mention() as target):
                return await manager.stats(ctx, target.user, await self._name(ctx, client, target))
            case Rank(target=None):
                return await manager.rank(ctx)
            case Rank(target=Mention() as target):
                return await manager.rank(ctx, target.user, await self._name(ctx, client, target))
            case Info(name="rules", preset=preset):
                return await manager.rules(ctx, preset)
            case Info(preset=preset):
                return await manager.odds(ctx, preset)
            case Configure(changes=changes):
                return await manager.configure(ctx, changes)
            case Grant(target=target, amount=amount):
                name = await self._name(ctx, client, target)
                return await manager.grant(ctx, target.user, name, amount)
            case Give(target=target, amount=amount):
                member = await self._member(ctx, client, target)
                recipient = Recipient(target.user, member.name, member.bot)
                return await manager.give(ctx, recipient, amount)
        raise AssertionError(f"unhandled command {command!r}")

    def _plain(self, name: str) -> Callable[[Context], Awaitable[Reply]]:
        manager = self.manager
        calls: dict[str, Callable[[Context], Awaitable[Reply]]] = {
            "join": manager.join, "leave": manager.leave, "stop": manager.stop,
            "balance": manager.balance, "daily": manager.daily, "review": manager.review,
        }  # fmt: skip
        return calls[name]

    async def _help(self, ctx: Context) -> Reply:
        reply = await self.manager.help(ctx)
        extra = options_help(await self.manager.private_lang(ctx))
        return Reply(private="\n\n".join(filter(None, (reply.private, extra))))

    async def _name(self, ctx: Context, client: AsyncWebClient, target: Mention) -> str:
        return (await self._member(ctx, client, target)).name

    async def _member(self, ctx: Context, client: AsyncWebClient, target: Mention) -> Member:
        return await self.members.get(client, ctx.scope.server, target.user,
                                      target.name or target.user)  # fmt: skip
