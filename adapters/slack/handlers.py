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
from slack_sdk.web.async_client import AsyncWebClient

from adapters.inflight import InFlight
from adapters.logcontext import bind
from adapters.slack.calls import CALL_TIMEOUT, RESPONSE_URL, CallFailed, FailureReport, ResponseUrl
from adapters.slack.commands import parse
from adapters.slack.delivery import Delivery, Respond, tell
from adapters.slack.dispatch import Dispatch
from adapters.slack.members import Members
from adapters.slack.threads import clicked_in
from core.game.errors import ShutboxError
from core.service.api.commands import Click, Solo, Start, Stop
from core.service.api.service import Service
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.views import Reply
from core.service.pipeline.clicks import clicked_button
from core.text.i18n import t

log = logging.getLogger(__name__)

PLATFORM = "slack"
# chat.postMessage errors that mean the bot may not post here (a private channel it is not in)
NOT_POSTABLE = ("not_in_channel", "channel_not_found", "is_archived", "restricted_action")
TITLE = "Slack"  # as players read it in a sentence
# Buttons that move a game on (the others answer, page or open something)
MOVES = ("join", "leave", "bot", "begin", "cancel", "roll", "choose")


def team_of(body: dict[str, Any]) -> str:
    """The workspace a payload comes from (slash commands say `team_id`, actions `team.id`)."""
    team = body.get("team") or {}
    user = body.get("user") or {}
    return str(body.get("team_id") or team.get("id") or user.get("team_id") or "")


@dataclass(frozen=True, slots=True)
class Handlers:
    manager: Service
    members: Members
    delivery: Delivery
    dispatch: Dispatch
    report: FailureReport = lambda call, reason: None
    timeout: int = CALL_TIMEOUT
    inflight: InFlight = dataclasses.field(default_factory=InFlight)

    # -- slash command --------------------------------------------------------------------

    async def on_command(
        self,
        ack: AsyncAck,
        command: dict[str, Any],
        client: AsyncWebClient,
    ) -> None:
        """`/shutbox <subcommand> ...`: the trigger id makes a redelivery apply once."""
        with self.inflight.track(f"slack command {_first_word(command)}"):
            await ack()
            await self._on_command(command, client)

    async def _on_command(self, command: dict[str, Any], client: AsyncWebClient) -> None:
        respond = ResponseUrl(command.get("response_url"), self.timeout)
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
            await tell(respond, await self._say(ctx, error.key, **error.params))
            return
        reply = await self.dispatch.run(ctx, command, client)
        try:
            await self.delivery.deliver(reply, ctx, client, respond)
        except CallFailed as failed:
            if failed.reason not in NOT_POSTABLE:
                await self._behind(ctx, reply, respond, failed, moved=False)
                return
            if isinstance(command, Start | Solo):
                await self._withdraw(ctx)
            await tell(respond, await self._say(ctx, "slack.cannot_post"))

    async def _say(self, ctx: Context, key: str, /, **params: object) -> str:
        """A private line of the adapter's own, in the caller's language."""
        return t(await self.manager.private_lang(ctx), key, **params)

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
    ) -> None:
        """A game button: the message, the click's time and the user make the request id."""
        with self.inflight.track(f"slack click {action.get('action_id', '')}"):
            await ack()
            await self._on_click(body, action, client)

    async def _on_click(
        self, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient
    ) -> None:
        respond = ResponseUrl(body.get("response_url"), self.timeout)
        user = body.get("user") or {}
        container = body.get("container") or {}
        channel = (body.get("channel") or {}).get("id") or container.get("channel_id") or ""
        channel = clicked_in(str(channel), body.get("message") or {})  # a table's thread
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
            try:
                await self.delivery.deliver(reply, ctx, client, respond, clicked=str(message_ts),
                                            button=button)  # fmt: skip
            except CallFailed as failed:
                await self._behind(ctx, reply, respond, failed, moved=_moves(button))

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
        bind(request_id=request_id, server=f"{PLATFORM}:{team}", channel=channel, user=user)
        member = await self.members.get(client, team, user, fallback_name)
        return Context(
            Scope(PLATFORM, team), channel, user, member.name, locale=None, admin=member.admin,
            request_id=request_id, direct=channel.startswith("D"), mentions=True,
        )  # fmt: skip

    async def _behind(
        self, ctx: Context, reply: Reply, respond: Respond, failed: CallFailed, *, moved: bool
    ) -> None:
        """The request was handled but Slack refused to show it: count it, have the sweep bring
        the game message up to date, and tell the player what did happen (never "nothing")."""
        log.warning("slack %s failed after the request was handled: %s", failed.call, failed.reason)
        self.report(failed.call, failed.reason)
        if reply.game is not None:
            self.manager.show_later(ctx.scope, reply.game.channel)
        if failed.call == RESPONSE_URL:
            return  # the private answer itself failed: a second one would go the same way
        try:
            await tell(respond, await self._behind_text(ctx, reply, moved))
        except CallFailed as again:
            log.warning("could not tell the player either: %s", again.reason)
            self.report(again.call, again.reason)

    async def _behind_text(self, ctx: Context, reply: Reply, moved: bool) -> str:
        """What the player hears when the answer was worked out but Slack did not show it."""
        if reply.refused:
            note = await self._say(ctx, "delivery.catching_up", platform=TITLE)
            return "\n".join(filter(None, (reply.private, note)))
        if reply.game is None:
            key = "delivery.not_posted"
        else:
            key = "delivery.behind_move" if moved else "delivery.behind"
        note = await self._say(ctx, key, platform=TITLE)
        own = reply.private if reply.private and reply.private not in reply.public else None
        return "\n".join(filter(None, (own, note)))

    async def _guarded(
        self, ctx: Context, respond: Respond, work: Callable[[], Awaitable[None]]
    ) -> None:
        """Run the work after ack; a failure is logged and the user told, never left silent."""
        try:
            await work()
        except Exception:
            log.exception("slack request failed (user %s, channel %s)", ctx.user, ctx.channel)
            try:
                await tell(respond, await self._say(ctx, "error.generic"))
            except CallFailed as failed:
                log.warning("could not tell the user about the failure: %s", failed.reason)
                self.report(failed.call, failed.reason)


def _moves(button: str) -> bool:
    """Whether the button moves its game on (a Roll, a Join), rather than only showing it."""
    pressed = clicked_button(Click(button))
    return pressed is not None and pressed.verb in MOVES


def _first_word(command: dict[str, Any]) -> str:
    """The subcommand, for the shutdown log (never the rest: it may name people)."""
    words = str(command.get("text") or "").split()
    return words[0][:20] if words else "help"
