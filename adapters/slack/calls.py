"""Slack calls made the platform's way: slack_sdk's retry handlers on every Web API and
response_url call, and a failure that outlives them named by its call and reason.

A rate limit is waited out as Slack asks (`Retry-After`), unless the wait is longer than a
player should stare at a frozen message: that call then fails at once, and the game message
catches up later (the deadline sweep shows it, see `adapters/slack/handlers.py`). Server errors
and dropped connections are tried once more; a timeout is not (the call may have gone through,
and a second chat.postMessage would post the game twice).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

CALL_TIMEOUT = 10  # seconds for one Web API or response_url call (slack_sdk's default is 30)
MAX_RATE_LIMIT_WAIT = 5.0  # a longer Retry-After is not waited out inside a request
RESPONSE_URL = "response_url"

# Reports one failed call: (call, reason), e.g. ("chat.update", "ratelimited").
FailureReport = Callable[[str, str], None]


class CallFailed(Exception):
    """A Slack call that failed after its retries: which call, and why (a metric label)."""

    def __init__(self, call: str, reason: str) -> None:
        super().__init__(f"{call} failed: {reason}")
        self.call = call
        self.reason = reason


class BoundedRateLimitRetryHandler(AsyncRateLimitErrorRetryHandler):
    """slack_sdk's rate-limit handler, for waits of at most `MAX_RATE_LIMIT_WAIT` seconds."""

    async def _can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        if response is None or response.status_code != 429:
            return False
        return _retry_after(response) <= MAX_RATE_LIMIT_WAIT


def _retry_after(response: HttpResponse) -> float:
    for name, values in response.headers.items():
        if name.lower() == "retry-after" and values:
            try:
                return float(values[0])
            except ValueError:
                return 1.0
    return 1.0


def retry_handlers() -> list[AsyncRetryHandler]:
    """A fresh set per client: the handlers keep no state, but slack_sdk's examples never
    share them, and a client's list is its own to change."""
    return [
        AsyncConnectionErrorRetryHandler(max_retry_count=1),
        BoundedRateLimitRetryHandler(max_retry_count=2),
        AsyncServerErrorRetryHandler(max_retry_count=1),
    ]


def web_client(
    token: str | None, base_url: str, timeout: int = CALL_TIMEOUT,
    session: aiohttp.ClientSession | None = None,
) -> AsyncWebClient:  # fmt: skip
    """A Web API client that retries the platform's way (on `session`'s connections, if given)."""
    return AsyncWebClient(
        token=token, base_url=base_url, timeout=timeout, retry_handlers=retry_handlers(),
        session=session,
    )  # fmt: skip


def kept_alive(timeout: int = CALL_TIMEOUT) -> aiohttp.ClientSession:
    """One HTTP session for every Web API call of the process. Without one, slack_sdk opens a
    session, and a connection (a TLS handshake, against Slack), for each call."""
    return aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout))


def with_retries(client: AsyncWebClient, timeout: int = CALL_TIMEOUT) -> AsyncWebClient:
    """Give a client bolt built its timeout and retry handlers."""
    client.timeout = timeout
    client.retry_handlers = retry_handlers()
    return client


def reason_of(error: BaseException) -> str:
    """A short, bounded name for why a call failed (Slack's error code where it gives one)."""
    if isinstance(error, CallFailed):
        return error.reason
    if isinstance(error, SlackApiError):
        status = getattr(error.response, "status_code", 0)
        code = error.response.get("error") if isinstance(error.response.data, dict) else None
        if status == 429:
            return "ratelimited"
        return str(code) if code else f"http_{status}"
    if isinstance(error, TimeoutError | asyncio.TimeoutError):
        return "timeout"
    if isinstance(error, aiohttp.ClientConnectorError):
        return "unreachable"
    if isinstance(error, aiohttp.ClientError | OSError):
        return "connection"
    return type(error).__name__


@asynccontextmanager
async def calling(call: str) -> AsyncIterator[None]:
    """Turn whatever the call raised into `CallFailed(call, reason)`."""
    try:
        yield
    except CallFailed:
        raise
    except (SlackApiError, aiohttp.ClientError, OSError, TimeoutError) as error:
        raise CallFailed(call, reason_of(error)) from error


class ResponseUrl:
    """A request's response_url (private answers), with the same retries as the Web API.

    bolt's own `respond` makes a client without retry handlers, and does not raise when Slack
    refuses the answer; this one does (`CallFailed`).
    """

    def __init__(self, url: str | None, timeout: int = CALL_TIMEOUT) -> None:
        self.url = url
        self.timeout = timeout

    async def __call__(self, **message: Any) -> None:
        if not self.url:
            raise CallFailed(RESPONSE_URL, "missing")
        client = AsyncWebhookClient(self.url, timeout=self.timeout, retry_handlers=retry_handlers())
        async with calling(RESPONSE_URL):
            response = await client.send_dict(message)
        if response.status_code != 200:
            raise CallFailed(RESPONSE_URL, f"http_{response.status_code}")
