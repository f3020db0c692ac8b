"""Who a Slack user is: the name shown on the board, whether they are a workspace admin, and
whether chips may go to them (a current human member: not deleted, not a bot, not Slackbot).

One `users.info` call per user, cached for a few minutes: commands and clicks come in bursts.
An answer Slack could not give (an error, a rate limit) is never cached nor guessed at.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from core.service.features.gifts import Standing, plausible_id

log = logging.getLogger(__name__)

CACHE_SECONDS = 300.0
MAX_CACHED = 10_000
SLACKBOT = "USLACKBOT"  # Slack's own bot: `users.info` does not even call it a bot
NO_SUCH_USER = ("user_not_found", "user_not_visible", "invalid_user_id")


@dataclass(frozen=True, slots=True)
class Member:
    name: str
    admin: bool = False  # a workspace admin or owner
    standing: Standing = Standing.MEMBER

    @property
    def bot(self) -> bool:
        return self.standing is Standing.BOT


def _standing(user: dict[str, Any]) -> Standing:
    if user.get("id") == SLACKBOT or user.get("is_bot") or user.get("is_app_user"):
        return Standing.BOT
    return Standing.ABSENT if user.get("deleted") else Standing.MEMBER


def member_from(user: dict[str, Any], fallback: str) -> Member:
    """The display name (else the real name, else the handle), the admin flags, and whether
    chips may go to them."""
    profile = user.get("profile") or {}
    name = (
        profile.get("display_name")
        or profile.get("real_name")
        or user.get("real_name")
        or user.get("name")
        or fallback
    )
    admin = any(user.get(flag) for flag in ("is_admin", "is_owner", "is_primary_owner"))
    return Member(str(name), admin, _standing(user))


@dataclass(slots=True)
class Members:
    """A small cache in front of `users.info`, per workspace and user."""

    ttl: float = CACHE_SECONDS
    clock: Callable[[], float] = time.monotonic
    _cache: dict[tuple[str, str], tuple[float, Member]] = field(default_factory=dict)

    async def get(self, client: AsyncWebClient, team: str, user: str, fallback: str) -> Member:
        """The member, or `fallback` as a non-admin name of standing UNKNOWN when Slack cannot
        say (ABSENT when it says there is no such user, or the id cannot be one)."""
        if not plausible_id(user):
            return Member(fallback, standing=Standing.ABSENT)
        if user == SLACKBOT:
            return Member("Slackbot", standing=Standing.BOT)
        cached = self._cache.get((team, user))
        if cached is not None and self.clock() - cached[0] < self.ttl:
            return cached[1]
        try:
            response = await client.users_info(user=user)
        except SlackApiError as error:
            log.warning("users.info %s failed: %s", user, error)
            missing = error.response.get("error") in NO_SUCH_USER
            return Member(fallback, standing=Standing.ABSENT if missing else Standing.UNKNOWN)
        except (SlackClientError, aiohttp.ClientError, TimeoutError) as error:
            log.warning("users.info %s failed: %s", user, error)
            return Member(fallback, standing=Standing.UNKNOWN)
        member = member_from(response.get("user") or {}, fallback)
        if len(self._cache) >= MAX_CACHED:
            self._cache.clear()
        self._cache[(team, user)] = (self.clock(), member)
        return member
