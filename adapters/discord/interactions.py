"""One interaction in, one manager call, and its `Reply` shown: the response within 3 seconds.

A slash command's game message becomes the interaction's response; a click on the game message
edits that message in place (`edit_message`); private text is ephemeral; summaries follow as
public messages. Work that takes longer than the budget is deferred first. The order is the
shared `deliver`'s (core/service/api/delivery.py); adapters/discord/surface.py puts what it shows
into the interaction's answer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from adapters.discord.calls import show_calls
from adapters.discord.http.exchange import settle_unanswered
from adapters.discord.publish import ChannelSurface
from adapters.discord.responder import Responder
from adapters.discord.surface import InteractionSurface
from adapters.discord.tables import open_tables, post_elsewhere
from adapters.inflight import InFlight
from adapters.logcontext import bind
from core.service.api import delivery
from core.service.api.commands import Click
from core.service.api.service import Service
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.views import Reply
from core.text.i18n import normalize_lang, t

log = logging.getLogger(__name__)

PLATFORM = "discord"
TITLE = "Discord"  # as players read it in a sentence
UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction that expired
ANSWER_BUDGET = 2.0  # seconds of work before deferring; Discord drops answers after 3
OUR_LOCALES = ("en", "da", "no", "nb", "nn")

Interaction = discord.Interaction[Any]
Call = Callable[[Context], Awaitable[Reply]]


def user_lang(locale: discord.Locale) -> str | None:
    """The catalog language of a user's Discord locale; None (the server's) when we have none."""
    return lang_of(locale.value)


def lang_of(locale: str) -> str | None:
    """The catalog language of a Discord locale's code (`da`, `en-US`); None when we have none."""
    primary = locale.split("-", maxsplit=1)[0].lower()
    return normalize_lang(primary) if primary in OUR_LOCALES else None


def context_for(interaction: Interaction) -> Context:
    """Who acts where: the guild's economy, or the user's own for a direct message."""
    user, guild_id = interaction.user, interaction.guild_id
    direct = guild_id is None
    return Context(
        scope=Scope(PLATFORM, f"dm-{user.id}" if direct else str(guild_id)),
        channel=str(interaction.channel_id or user.id),
        user=str(user.id),
        name=user.display_name,
        locale=user_lang(interaction.locale),
        admin=not direct and interaction.permissions.manage_guild,
        request_id=str(interaction.id),
        direct=direct,
        mentions=True,
    )


async def within_budget(work: Awaitable[Reply], defer: Callable[[], Awaitable[None]]) -> Reply:
    """The reply of `work`; when it takes longer than the budget, the interaction is deferred
    (and the deferral sent before the reply is shown). A timer, not a task and a wait: this
    runs for every interaction, and nearly all of them end well inside the budget."""
    loop = asyncio.get_running_loop()
    deferral: list[asyncio.Task[None]] = []
    timer = loop.call_later(ANSWER_BUDGET, lambda: deferral.append(loop.create_task(_defer(defer))))
    try:
        return await work
    finally:
        timer.cancel()
        if deferral:
            await deferral[0]


async def _defer(defer: Callable[[], Awaitable[None]]) -> None:
    try:
        await defer()
    except discord.HTTPException:
        log.warning("could not defer a slow interaction")


async def answer(
    interaction: Interaction, manager: Service, call: Call, *, public: bool = False
) -> None:
    """Run one command or click through the manager and show its reply."""
    inflight = getattr(interaction.client, "inflight", None)
    if not isinstance(inflight, InFlight):  # a client of discord.py's own, in a test
        inflight = InFlight()
    with inflight.track(f"discord interaction {interaction.id}"):
        try:
            await _answer(interaction, manager, call, public)
        finally:
            settle_unanswered()


async def _answer(interaction: Interaction, manager: Service, call: Call, public: bool) -> None:
    started = time.perf_counter()
    responder, ctx = Responder(interaction), context_for(interaction)
    bind(request_id=ctx.request_id, server=f"{PLATFORM}:{ctx.scope.server}", channel=ctx.channel,
         user=ctx.user)  # fmt: skip
    try:
        reply = await within_budget(call(ctx), lambda: responder.defer(ephemeral=not public))
    except Exception:
        log.exception("interaction %s failed", interaction.id)
        await apologise(responder, ctx)
        return
    if reply.replayed:
        # The same interaction delivered again (its id is the request id): Discord takes
        # one answer per interaction, and the delivery that applied it gives that answer.
        log.info("interaction %s delivered again: its first delivery answers", interaction.id)
        return
    try:
        await deliver(responder, manager, ctx, reply)
    except Exception as error:  # the request was handled: never say that nothing changed
        await behind(responder, manager, ctx, reply, error)
    log.debug("interaction %s answered in %.1f ms", interaction.id, _ms_since(started))


async def behind(
    responder: Responder, manager: Service, ctx: Context, reply: Reply, error: Exception
) -> None:
    """Discord refused to show a handled request (the interaction expired, a 5xx after
    discord.py's retries): count it, let the sweep catch the game message up, and tell the
    player what did happen if Discord still takes a word from us."""
    reason = failure_reason(error)
    if isinstance(error, discord.HTTPException):
        log.warning("interaction %s not answered: %s", responder.interaction.id, reason)
    else:
        log.exception("interaction %s could not be shown", responder.interaction.id)
    report = getattr(responder.interaction.client, "report", None)
    if report is not None:
        report("interaction", reason)
    if reply.game is not None:
        manager.show_later(ctx.scope, reply.game.channel)
    if reply.refused:
        return  # nothing changed, and the refusal could not be shown either
    key = "delivery.behind_move" if responder.clicked_message else "delivery.behind"
    try:
        await responder.interaction.followup.send(
            t(await manager.private_lang(ctx), key, platform=TITLE), ephemeral=True
        )
    except discord.HTTPException as again:
        log.warning("could not tell the player either: %s", failure_reason(again))


def failure_reason(error: BaseException) -> str:
    """A short, bounded name for a failed Discord call (a metric label)."""
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        return "interaction_expired"
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            return "ratelimited"
        return f"http_{error.status}"
    if isinstance(error, TimeoutError):
        return "timeout"
    return type(error).__name__


async def apologise(responder: Responder, ctx: Context) -> None:
    """A bug must still leave the user an answer rather than Discord's "did not respond"."""
    try:
        await responder.say(t(ctx.locale or "en", "error.generic"), ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about the failure")


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000


async def press(interaction: Interaction, manager: Service, custom_id: str) -> None:
    """A game button: the manager checks who may press it and whether it is current."""
    await answer(interaction, manager, lambda ctx: manager.handle(ctx, Click(custom_id)))


async def deliver(responder: Responder, manager: Service, ctx: Context, reply: Reply) -> None:
    """Show the reply in the interaction's answer, then make sure the interaction got one."""
    channel = ChannelSurface(responder.interaction.client, ctx.channel)
    surface = InteractionSurface(responder, channel)
    await delivery.deliver(reply, surface, manager, ctx)
    await responder.finish(await _fallback(surface, manager, ctx))
    await follow_ups(responder.interaction.client, manager, ctx, reply)


async def follow_ups(client: discord.Client, manager: Service, ctx: Context, reply: Reply) -> None:
    """What the bot posts on its own after the answer: turn calls, standings, tables."""
    if reply.call is not None or reply.uncall:  # the player whose turn it is now
        await show_calls(client, manager, ctx, reply)
    if reply.elsewhere:  # a tournament's standings, in its own channel
        await post_elsewhere(client, manager, ctx, reply)
    if reply.tables:  # a tournament round starts: its tables open in threads
        await open_tables(client, manager, ctx, reply)


async def _fallback(surface: InteractionSurface, manager: Service, ctx: Context) -> str:
    """What a command that showed nothing else answers: a link to the game it changed, if that
    is elsewhere in the channel, or a tick."""
    if not surface.link:
        return "✅"
    return t(await manager.private_lang(ctx), "discord.updated", link=surface.link)
