"""The Slack app: bolt's `AsyncApp` with the `/shutbox` command and the game buttons.

One workspace runs on a bot token; many workspaces install the app through Slack's OAuth flow
(`/slack/install`, `/slack/oauth_redirect`) and their tokens live in Redis. Either way every
Web API call goes to `api_url`, so a staging proxy or a test can stand in for Slack.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.authorization.async_authorize import AsyncInstallationStoreAuthorize
from slack_bolt.middleware.async_middleware import AsyncMiddleware
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_sdk.web.async_client import AsyncWebClient

from adapters.inflight import InFlight
from adapters.pictures import PictureLinks
from adapters.slack.calls import (
    CALL_TIMEOUT,
    CallFailed,
    FailureReport,
    kept_alive,
    web_client,
    with_retries,
)
from adapters.slack.delivery import Delivery
from adapters.slack.dispatch import Dispatch
from adapters.slack.guard import BadRequest, check_payload
from adapters.slack.handlers import Handlers
from adapters.slack.installations import RedisInstallationStore, RedisOAuthStateStore
from adapters.slack.members import Members
from core.service.api.service import Service
from core.service.model.commit import Scope
from core.service.model.context import Context
from core.service.model.views import Reply
from core.service.pipeline.sweep import SWEEP_CLOCK
from core.store.redis_store import RedisClient

log = logging.getLogger(__name__)

SLASH_COMMAND = "/shutbox"
BUTTONS = re.compile(r"^stb:")
BOT_SCOPES = ("commands", "chat:write", "chat:write.public", "users:read")
DEFAULT_API_URL = "https://slack.com/api/"


@dataclass(frozen=True, slots=True)
class SlackConfig:
    """What the app needs to know; a bot token, or a client id and secret for OAuth installs."""

    signing_secret: str
    bot_token: str | None = None
    client_id: str | None = None
    client_secret: str | None = None
    api_url: str = DEFAULT_API_URL
    redirect_uri: str | None = None
    command: str = SLASH_COMMAND
    # Board pictures by signed URL from the bot's own server; None: the emoji board instead
    pictures: PictureLinks | None = None
    timeout: int = CALL_TIMEOUT  # seconds for one Slack call

    @property
    def oauth(self) -> bool:
        return bool(self.client_id and self.client_secret)

    @property
    def base_url(self) -> str:
        """slack_sdk joins method names onto the base URL, so it must end with a slash."""
        return self.api_url if self.api_url.endswith("/") else f"{self.api_url}/"


@dataclass(slots=True)
class SlackBot:
    """The bolt app and what the deadline sweeper needs to show timeouts."""

    app: AsyncApp
    config: SlackConfig
    delivery: Delivery
    installations: RedisInstallationStore | None = None
    members: Members = field(default_factory=Members)
    report: FailureReport = lambda call, reason: None
    inflight: InFlight = field(default_factory=InFlight)

    async def client_for(self, team: str) -> AsyncWebClient | None:
        """A Web API client with the workspace's bot token (None if it is not installed)."""
        if self.installations is None:
            return self.app.client
        bot = await self.installations.async_find_bot(enterprise_id=None, team_id=team)
        if bot is None or bot.bot_token is None:
            return None
        return web_client(
            bot.bot_token, self.config.base_url, self.config.timeout, self.app.client.session
        )

    @asynccontextmanager
    async def connections(self) -> AsyncIterator[None]:
        """Every Web API call on one kept-alive HTTP session while the block runs (bolt gives
        each request's client its app client's session)."""
        session = kept_alive(self.config.timeout)
        self.app.client.session = session
        try:
            yield
        finally:
            self.app.client.session = None
            await session.close()

    async def on_timeout(self, scope: Scope, reply: Reply) -> None:
        """A deadline passed (auto move, closed lobby): edit the game message, post summaries.
        A tournament's start time has no game: its start goes to the tournament's channel."""
        channel = reply.game.channel if reply.game else next(iter(reply.elsewhere), ("",))[0]
        if not channel:
            return
        client = await self.client_for(scope.server)
        if client is None:
            log.warning("no bot token for workspace %s; timeout not shown", scope.server)
            return
        ctx = Context(scope, channel, SWEEP_CLOCK, SWEEP_CLOCK)
        try:
            await self.delivery.deliver(reply, ctx, client, None)
        except CallFailed as failed:  # Slack still refuses: the next sweep tries again
            log.warning("slack %s failed showing a game in %s: %s", failed.call,
                        channel, failed.reason)  # fmt: skip
            self.report(failed.call, failed.reason)
            if reply.game is not None:
                self.delivery.manager.show_later(scope, channel)


def build_app(
    manager: Service,
    config: SlackConfig,
    redis: RedisClient | None = None,
    members: Members | None = None,
    report: FailureReport | None = None,
    inflight: InFlight | None = None,
) -> SlackBot:
    """The Slack app around `manager` (tests pass one with seeded dice); `report` counts the
    Slack calls that failed after their retries, by call and reason;
    `inflight` tracks the requests acknowledged and still worked on (a shutdown waits)."""
    members = members or Members()
    installations = None
    if config.oauth:
        if redis is None:
            raise ValueError("OAuth installs keep their tokens in Redis: pass a Redis client")
        installations = RedisInstallationStore(redis)
        app = _oauth_app(config, installations, RedisOAuthStateStore(redis))
        app.enable_token_revocation_listeners()
    else:
        if not config.bot_token:
            raise ValueError("set a bot token, or a client id and secret for OAuth installs")
        # The token alone: given a `client=` as well, bolt warns on every start that the token
        # (which it also reads from SLACK_BOT_TOKEN) goes unused. Its own client gets our URL.
        app = AsyncApp(signing_secret=config.signing_secret, token=config.bot_token)
        app.client.base_url = config.base_url
        with_retries(app.client, config.timeout)
        app.event("app_uninstalled")(_ignore)
        app.event("tokens_revoked")(_ignore)
    app.use(PayloadChecked())  # Socket Mode never passes the HTTP guard (adapters/slack/guard.py)
    report = report or _unreported
    delivery = Delivery(manager, pictures=config.pictures)
    handlers = Handlers(
        manager, members, delivery, Dispatch(manager, members), report, config.timeout,
        inflight if inflight is not None else InFlight(),
    )  # fmt: skip
    app.command(config.command)(handlers.on_command)
    app.action(BUTTONS)(handlers.on_click)
    return SlackBot(app, config, delivery, installations, members, report, handlers.inflight)


def _oauth_app(
    config: SlackConfig, installations: RedisInstallationStore, states: RedisOAuthStateStore
) -> AsyncApp:
    client = web_client(None, config.base_url, config.timeout)
    settings = AsyncOAuthSettings(
        client_id=config.client_id, client_secret=config.client_secret, scopes=list(BOT_SCOPES),
        user_scopes=[], redirect_uri=config.redirect_uri, installation_store=installations,
        installation_store_bot_only=True, state_store=states,
    )  # fmt: skip
    # bolt's default authorize calls auth.test on every request before the listener may ack;
    # caching the result keeps that round trip off all but a workspace's first request.
    authorize = AsyncInstallationStoreAuthorize(
        logger=log, installation_store=installations, client_id=config.client_id,
        client_secret=config.client_secret, bot_only=True, cache_enabled=True, client=client,
    )  # fmt: skip
    return AsyncApp(
        signing_secret=config.signing_secret, client=client, oauth_settings=settings,
        authorize=authorize,  # type: ignore[arg-type]  # bolt accepts an AsyncAuthorize too
        installation_store=installations, installation_store_bot_only=True,
    )  # fmt: skip


class PayloadChecked(AsyncMiddleware):
    """A payload our listeners cannot read is acknowledged quietly (Slack would only send it
    again) with one warning line, and goes no further. A class, not a function: bolt builds
    every injectable argument of a function middleware, and fails on such payloads doing so."""

    async def async_process(
        self,
        *,
        req: AsyncBoltRequest,
        resp: BoltResponse,
        next: Callable[[], Awaitable[BoltResponse]],  # bolt's name for it
    ) -> BoltResponse | None:
        try:
            check_payload(req.body)
        except BadRequest as refused:
            log.warning("slack payload refused: %s", refused)
            return BoltResponse(status=200, body="")
        return await next()


def _unreported(call: str, reason: str) -> None:
    """Where nobody counts the failures (tests, tools): the log line is all."""


async def _ignore() -> None:
    """Token-mode apps have no installations to forget when uninstalled (bolt acks events)."""
