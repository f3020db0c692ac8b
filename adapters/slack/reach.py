"""Whether Slack answers this process, asked again and again while it serves (readiness).

A process that reached Slack once at start-up (auth.test, bot/commands/slack.py) can lose it
later: a network change, an egress proxy gone, a token revoked. Players then get no answers, so
the process must say so on /readyz and in `shutbox_platform_connected` (the
ShutboxPlatformDisconnected alert). Every `every` seconds it asks auth.test (api.test for OAuth
installs, which have no token of their own), and reports the answer; the log gets one line
when Slack is lost and one when it answers again, not one per check.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.calls import reason_of

CHECK_SECONDS = 15.0
CHECK_TIMEOUT = 10.0  # an answer slower than this counts as none

log = logging.getLogger("shutbox.slack")


async def slack_answers(client: AsyncWebClient, with_token: bool) -> str | None:
    """None when Slack answers (and accepts the token), else why not."""
    try:
        async with asyncio.timeout(CHECK_TIMEOUT):
            if with_token:
                await client.auth_test()
            else:
                await client.api_test()
    except (SlackApiError, aiohttp.ClientError, OSError, TimeoutError) as error:
        return reason_of(error)
    return None


@dataclass(slots=True)
class SlackReach:
    """Asks Slack every `every` seconds; `report(True/False)` on each answer."""

    client: AsyncWebClient
    with_token: bool
    report: Callable[[bool], None]
    every: float = CHECK_SECONDS
    reachable: bool = True  # start-up's auth.test has just answered

    async def run(self, stopping: Callable[[], Awaitable[None]]) -> None:
        """Check until `stopping()` returns (the process's drain began)."""
        stop = asyncio.ensure_future(stopping())
        try:
            while not stop.done():
                with suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(stop), self.every)
                if not stop.done():
                    self._saw(await slack_answers(self.client, self.with_token))
        finally:
            stop.cancel()

    def _saw(self, failure: str | None) -> None:
        if failure is not None and self.reachable:
            log.warning("Slack can't be reached (%s): not ready until it answers again", failure)
        elif failure is None and not self.reachable:
            log.info("Slack answers again: ready")
        self.reachable = failure is None
        self.report(self.reachable)
