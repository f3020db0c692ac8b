"""The bot's two web listeners, each on its own setting, as a process serving players runs them.

- The operator listener (SHUTBOX_HEALTH_HOST:SHUTBOX_HEALTH_PORT, 127.0.0.1:8080): the probes and
  `/metrics` (bot/health.py). For the orchestrator and Prometheus, never for the internet.
- The public listener (SHUTBOX_PUBLIC_HOST:SHUTBOX_PUBLIC_PORT, 0.0.0.0:3000): Slack's requests
  when Slack runs over HTTP, the board pictures and the servers' pages (adapters/public.py). The
  one port a proxy forwards from SHUTBOX_PUBLIC_URL.

With Slack over HTTP the Slack server is the public listener (bot/commands/slack.py mounts the
pictures and pages on it); otherwise `serving_listeners` opens one for them when SHUTBOX_PUBLIC_URL
is set (without it there is nothing public to serve).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING

from adapters.http import serving_app
from adapters.public import PublicSide
from adapters.web.addresses import TrustedProxies

if TYPE_CHECKING:
    from bot.runtime import Runtime
    from bot.sections import Settings

log = logging.getLogger("shutbox")


def public_side(settings: Settings, runtime: Runtime) -> PublicSide:
    """What the public listener serves, from the settings: pictures and pages need the URL."""
    from bot.pictures import picture_links

    core = settings.core
    return PublicSide(runtime.store, core.public_url, picture_links(settings),
                      TrustedProxies.of(core.trusted_proxies), runtime.posts)  # fmt: skip


def tell_pages(settings: Settings, runtime: Runtime, listening: bool) -> None:
    """Let `/shutbox web` say the truth: a page needs the public URL and a public listener."""
    manager, public_url = runtime.manager, settings.core.public_url
    manager.public_url = public_url if public_url and listening else ""
    manager.no_pages = "web.no_address" if not public_url else "web.no_listener"


@asynccontextmanager
async def serving_listeners(
    settings: Settings, runtime: Runtime, platforms: Iterable[str] = (), public: bool = True,
    posted: bool = False,
) -> AsyncIterator[int | None]:
    """The operator listener and, when `public` (no Slack over HTTP in this process) and there
    is a public URL to serve under or interactions to be `posted` to it (Discord over HTTP),
    the public one, while the block runs. `platforms` are the
    ones this process serves: unready until each adapter reports itself connected through
    `runtime.telemetry.platforms`. Yields the operator port, or None when it is off."""
    for platform in platforms:
        runtime.telemetry.platforms.expect(platform)
    core = settings.core
    # Slack over HTTP (not `public`) always has the public listener: its own server
    tell_pages(settings, runtime, listening=bool(core.public_port) or not public)
    async with AsyncExitStack() as stack:
        # nothing public without the URL, unless Discord posts its interactions here
        if public and core.public_port and (core.public_url or posted):
            side = public_side(settings, runtime)
            bound = await stack.enter_async_context(
                serving_app(side.app(), core.public_host, core.public_port)
            )
            log.info("public listener on http://%s:%d (/board/, /s/%s)", core.public_host, bound,
                     ", /discord/interactions" if posted else "")  # fmt: skip
        yield await stack.enter_async_context(_operator(settings, runtime))


@asynccontextmanager
async def _operator(settings: Settings, runtime: Runtime) -> AsyncIterator[int | None]:
    """The probes and `/metrics` on SHUTBOX_HEALTH_PORT (0: off)."""
    from bot.health import HealthSources, serving

    core = settings.core
    if not core.health_port:
        yield None
        return
    sources = HealthSources(
        runtime.redis, runtime.telemetry, lambda: len(runtime.manager.games), store=runtime.store,
        stopping=runtime.shutdown.requested.is_set,
    )  # fmt: skip
    async with serving(sources, core.health_host, core.health_port) as bound:
        log.info("operator listener on http://%s:%d (/livez, /readyz, /metrics)",
                 core.health_host, bound)  # fmt: skip
        yield bound
