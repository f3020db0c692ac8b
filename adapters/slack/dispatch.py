"""One parsed `/shutbox` command through the manager: the names its mentions stand for are
looked up first, and `help` gets Slack's options after the core's text."""

from __future__ import annotations

from dataclasses import dataclass, replace

from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.members import Member, Members
from adapters.slack.texts import options_help
from core.service.api.commands import Command, Give, Grant, Help, Rank, Stats
from core.service.api.service import Service
from core.service.features.gifts import Recipient
from core.service.model.context import Context
from core.service.model.views import Reply

# Where Slack's help adds every `key=value` option and setting: the overview and the commands
# that take them.
SLACK_HELP_TOPICS = (None, "start", "solo", "config")


@dataclass(frozen=True, slots=True)
class Dispatch:
    manager: Service
    members: Members

    async def run(self, ctx: Context, command: Command, client: AsyncWebClient) -> Reply:
        """Translate the command's mentions, call `handle`, and add Slack's part of `help`."""
        reply = await self.manager.handle(ctx, await self._named(ctx, command, client))
        if not isinstance(command, Help) or _topic(command) not in SLACK_HELP_TOPICS:
            return reply
        extra = options_help(await self.manager.private_lang(ctx))
        return Reply(private="\n\n".join(filter(None, (reply.private, extra))))

    async def _named(self, ctx: Context, command: Command, client: AsyncWebClient) -> Command:
        """The command with each member it names shown as the workspace shows them."""
        match command:
            case Stats(user=str(user), name=name) | Rank(user=str(user), name=name):
                member = await self._member(ctx, client, user, name)
                return replace(command, name=member.name)
            # Chips go only to whom Slack confirms, under the name Slack gives (never the
            # mention's label: `<@U0BOB|Mallory>` is still Bob).
            case Grant(target=target):
                member = await self._member(ctx, client, target, None)
                return replace(command, name=member.name, standing=member.standing)
            case Give(recipient=recipient):
                member = await self._member(ctx, client, recipient.id, None)
                named = Recipient(recipient.id, member.name, member.standing)
                return replace(command, recipient=named)
        return command

    async def _member(
        self, ctx: Context, client: AsyncWebClient, user: str, name: str | None
    ) -> Member:
        return await self.members.get(client, ctx.scope.server, user, name or user)


def _topic(command: Help) -> str | None:
    return command.topic.strip().lower() or None if command.topic else None
