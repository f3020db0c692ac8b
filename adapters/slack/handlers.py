"""The listeners: acknowledge at once, then turn the payload into one manager call and show it.

Slack wants an answer within 3 seconds, so `ack()` comes first and the work follows (bolt keeps
running the listener after the HTTP response when `process_before_response` is off).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.commands import parse
from adapters.slack.delivery import Delivery, Respond, tell
from adapters.slack.dispatch import Dispatch
from adapters.slack.members import Members
from core.game.errors import ShutboxError
from core.service.commands import Click, Solo, Start, Stop
from core.service.commit import Scope
from core.service.context import Context
from core.service.manager import GameManager

log = logging.getLogger(__name__)

PLATFORM = "slack"
# chat.postMessage errors that mean the bot may not post here (a private channel it is not in)
NOT_POSTABLE = ("not_in_channel", "channel_not_found", "is_archived", "restricted_action")


def team_of(body: dict[str, Any]) -> str:
    """The workspace a payload comes from (slash commands say `team_id`, actions `team.id`)."""
    team = body.get("team") or {}
    user = body.get("user") or {}
    return str(body.get("team_id") or team.get("id") or user.get("team_id") or "")


@dataclass(frozen=True, slots=True)
class Handlers:
    manager: GameManager
    members: Members
    delivery: Delivery
    dispatch: Dispatch

    # -- slash command --------------------------------------------------------------------

    async def on_command(
        self,
        ack: AsyncAck,
        command: dict[str, Any],
        client: AsyncWebClient,
        respond: Respond,
    ) -> None:
        """`/shutbox <subcommand> ...`: the trigger id makes a redelivery apply once."""
        await ack()
        user, channel = str(command["user_id"]), str(command["channel_id"])
        ctx = await self._context(
            client, team_of(command), channel, user, str(command.get("user_name") or user),
            request_id=str(command.get("trigger_id") or "") or None,
        )  # fmt: skip

        async def work() -> None:
            await self._command(ctx, command, client, respond)

        await self._guarded(ctx, respond, work)

    async def _command(
        self,
        ctx: Context,
        payload: dict[str, Any],
        client: AsyncWebClient,
        respond: Respond,
    ) -> None:
        try:
            command = parse(str(payload.get("text") or ""))
        except ShutboxError as error:
            await tell(respond, await self.manager.say(ctx, error.key, **error.params))
            return
        reply = await self.dispatch.run(ctx, command, client)
        try:
            await self.delivery.deliver(reply, ctx, client, respond)
        except SlackApiError as error:
            if error.response.get("error") not in NOT_POSTABLE:
                raise
            if isinstance(command, Start | Solo):
                await self._withdraw(ctx)
            await tell(respond, await self.manager.say(ctx, "slack.cannot_post"))

    async def _withdraw(self, ctx: Context) -> None:
        """A game that could not be posted here is stopped again (nobody could play it)."""
        withdrawal = dataclasses.replace(ctx, request_id=f"{ctx.request_id}:withdraw")
        await self.manager.handle(withdrawal, Stop())

    # -- buttons --------------------------------------------------------------------------

    async def on_click(
        self,
        ack: AsyncAck,
        body: dict[str, Any],
        action: dict[str, Any],
        client: AsyncWebClient,
        respond: Respond,
    ) -> None:
        """A game button: the message, the click's time and the user make the request id."""
        await ack()
        user = body.get("user") or {}
        container = body.get("container") or {}
        channel = (body.get("channel") or {}).get("id") or container.get("channel_id") or ""
        message_ts = container.get("message_ts") or (body.get("message") or {}).get("ts", "")
        request_id = f"{message_ts}:{action.get('action_ts', '')}:{user.get('id', '')}"
        ctx = await self._context(
            client, team_of(body), str(channel), str(user.get("id", "")),
            str(user.get("username") or user.get("name") or user.get("id", "")),
            request_id=request_id,
        )  # fmt: skip

        async def work() -> None:
            button = str(action.get("action_id", ""))
            reply = await self.manager.handle(ctx, Click(button))
            await self.delivery.deliver(reply, ctx, client, respond, clicked=str(message_ts),
                                        button=button)  # fmt: skip

        await self._guarded(ctx, respond, work)

    # -- shared ---------------------------------------------------------------------------

    async def _context(
        self,
        client: AsyncWebClient,
        team: str,
        channel: str,
        user: str,
        fallback_name: str,
        *,
        request_id: str | None,
    ) -> Context:
        """Who acts where. Slack has no per-user language here: replies use the workspace's."""
        member = await self.members.get(client, team, user, fallback_name)
        return Context(
            Scope(PLATFORM, team), channel, user, member.name, locale=None, admin=member.admin,
            request_id=request_id, direct=channel.startswith("D"),
        )  # fmt: skip

    async def _guarded(
        self, ctx: Context, respond: Respond, work: Callable[[], Awaitable[None]]
    ) -> None:
        """Run the work after ack; a failure is logged and the user told, never left silent."""
        try:
            await work()
        except Exception:
            log.exception("slack request failed (user %s, channel %s)", ctx.user, ctx.channel)
            try:
                await tell(respond, await self.manager.say(ctx, "error.generic"))
            except Exception:
                log.exception("could not tell the user about the failure")
