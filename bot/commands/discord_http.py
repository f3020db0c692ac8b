"""`DISCORD_MODE=http`: Discord POSTs every interaction to `/discord/interactions` on the bot's
public listener (SHUTBOX_PUBLIC_PORT, behind SHUTBOX_PUBLIC_URL), and the bot answers in the
HTTP response. No gateway connection, no cache: any process behind a load balancer can take any
interaction. Messages the bot writes on its own (a timeout's move, summaries) go through the
REST API with the bot token, as in the gateway mode.

Discord lets a bot's token post messages only once the bot has connected to the gateway at
least once: the first process to start identifies once and closes, and keeps a mark in Redis
so that no process does it again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from redis.exceptions import RedisError

from bot.commands import CommandError

if TYPE_CHECKING:
    from adapters.discord import ShutboxClient
    from bot.runtime import Runtime
    from bot.sections import Settings

log = logging.getLogger("shutbox.discord")
IDENTIFIED_KEY = "stb:discord:identified:{application}"  # global: no server's slot
Gateway = tuple[str, str]  # the gateway's URL and the bot token, for the one connection


def check_http(settings: Settings) -> None:
    """The HTTP mode needs the public listener, where Discord's POSTs arrive."""
    if not settings.core.public_port:
        raise CommandError("DISCORD_MODE=http needs the public listener: set SHUTBOX_PUBLIC_PORT "
                           "(0 turns it off); Discord's interactions arrive at "
                           "/discord/interactions on it")  # fmt: skip


async def serve_interactions(
    runtime: Runtime, client: ShutboxClient, public_key: str, gateway: Gateway,
    report: Callable[[bool], None],
) -> None:  # fmt: skip
    """Take interactions at `/discord/interactions` until the shutdown's drain is over; then
    the ones being answered get the grace period."""
    from adapters.discord.http.endpoint import INTERACTIONS_PATH, interactions_handler
    from adapters.discord.http.signature import Signatures, verify_key

    key = verify_key(public_key)  # checked with the settings
    runtime.posts.bind(INTERACTIONS_PATH, interactions_handler(Signatures(key), client.receive))
    report(True)
    log.info("taking Discord interactions at %s", INTERACTIONS_PATH)
    # in the background: commands and clicks need no gateway, only the bot's own posts do
    once = asyncio.create_task(identified_once(runtime, client, *gateway))
    try:
        await runtime.until_stopping()
    finally:
        runtime.posts.unbind(INTERACTIONS_PATH)
        report(False)
        once.cancel()
    await runtime.finish_inflight()


async def identified_once(
    runtime: Runtime, client: ShutboxClient, gateway_url: str, token: str
) -> None:
    """Connect to the gateway once in the application's life (see the module)."""
    from adapters.discord.http.gateway_once import GatewayRefused, identify_once

    key = IDENTIFIED_KEY.format(application=client.application_id)
    try:
        if await runtime.redis.exists(key):
            return
        await identify_once(gateway_url, token)
        await runtime.redis.set(key, str(int(time.time())))
    except (GatewayRefused, RedisError) as error:
        # Commands and clicks are answered all the same; only the bot's own posts may fail.
        log.warning("could not make sure the bot has connected to the Discord gateway once "
                    "(%s: %s); its own posts may be refused until it has", type(error).__name__,
                    error)  # fmt: skip
        return
    log.info("connected to the Discord gateway once, as Discord asks before a bot posts")
