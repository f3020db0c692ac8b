"""Who a Slack user is: the name shown on the board, and whether they are a workspace admin.

One `users.info` call per user, cached for a few minutes: commands and clicks come in bursts.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from slack_sdk.errors import SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

log = logging.getLogger(__name__)

CACHE_SECONDS = 300.0
MAX_CACHED = 10_000


@dataclass(frozen=True, slots=True)
class Member:
    name: str
    admin: bool = False  # a workspace admin or owner
    bot: bool = False  # an app's bot user


def member_from(user: dict[str, Any], fallback: str) -> Member:
    """The display name (else the real name, else the handle) and the admin flags."""
    profile = user.get("profile") or {}
    name = (
        profile.get("display_name")
        or profile.get("real_name")
        or user.get("real_name")
        or user.get("name")
        or fallback
    )
    admin = any(user.get(flag) for flag in ("is_admin", "is_owner", "is_primary_owner"))
    return Member(str(name), admin, bool(user.get("is_bot")))


@dataclass(slots=True)
class Members:
    """A small cache in front of `users.info`, per workspace and user."""

    ttl: float = CACHE_SECONDS
    clock: Callable[[], float] = time.monotonic
    _cache: dict[tuple[str, str], tuple[float, Member]] = field(default_factory=dict)

    async def get(self, client: AsyncWebClient, team: str, user: str, fallback: str) -> Member:
        """The member, or `fallback` as a non-admin name when Slack cannot say."""
        cached = self._cache.get((team, user))
        if cached is not None and self.clock() - cached[0] < self.ttl:
            return cached[1]
        try:
            response = await client.users_info(user=user)
        except (SlackClientError, aiohttp.ClientError, TimeoutError) as error:
            log.warning("users.info %s failed: %s", user, error)
            return Member(fallback)
        member = member_from(response.get("user") or {}, fallback)
        if len(self._cache) >= MAX_CACHED:
            self._cache.clear()
        self._cache[(team, user)] = (self.clock(), member)
        return member
