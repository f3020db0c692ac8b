"""Installations and OAuth states for many workspaces, kept in Redis (redis.asyncio).

Keys: `stb:slack:install:{<enterprise>-<team>}:bot` (the latest bot token), `...:installer`
(the latest installation), `...:installer:<user>` (per installing user), `...:users` (their ids);
`stb:slack:state:<state>` (one OAuth state, used once, expiring). The braces keep a workspace's
keys in one Redis Cluster slot. Values are the JSON of the slack_sdk models, as slack_sdk's own
file store writes them.
"""

from __future__ import annotations

import json
import logging
import secrets
from typing import Any, cast

from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.installation_store.models.bot import Bot
from slack_sdk.oauth.installation_store.models.installation import Installation
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore

from core.store.redis_store import RedisClient

INSTALL_PREFIX = "stb:slack:install"
STATE_PREFIX = "stb:slack:state"
STATE_SECONDS = 600
NONE = "none"

log = logging.getLogger(__name__)


def workspace_key(enterprise_id: str | None, team_id: str | None) -> str:
    """The key prefix of one workspace (or, for an org-wide install, of the organisation)."""
    return f"{INSTALL_PREFIX}:{{{enterprise_id or NONE}-{team_id or NONE}}}"


class RedisInstallationStore(AsyncInstallationStore):
    """bolt's installation store interface on Redis; needs `decode_responses=True`."""

    def __init__(self, redis: RedisClient) -> None:
        self._redis = redis

    @property
    def logger(self) -> logging.Logger:
        return log

    async def async_save(self, installation: Installation) -> None:
        """The installation, per installer and as the workspace's latest, and its bot."""
        base = workspace_key(installation.enterprise_id, _team(installation))
        user = installation.user_id or NONE
        data = json.dumps(installation.__dict__)
        pipe = self._redis.pipeline(transaction=False)
        pipe.set(f"{base}:installer", data)
        pipe.set(f"{base}:installer:{user}", data)
        pipe.sadd(f"{base}:users", user)
        await pipe.execute()
        await self.async_save_bot(installation.to_bot())

    async def async_save_bot(self, bot: Bot) -> None:
        if bot.bot_token is None:
            return
        team = None if bot.is_enterprise_install else bot.team_id
        await self._redis.set(f"{workspace_key(bot.enterprise_id, team)}:bot",
                              json.dumps(bot.__dict__))  # fmt: skip

    async def async_find_bot(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        is_enterprise_install: bool | None = False,
    ) -> Bot | None:
        team = None if is_enterprise_install else team_id
        data = await self._load(f"{workspace_key(enterprise_id, team)}:bot")
        return None if data is None else Bot(**data)

    async def async_find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> Installation | None:
        """The user's installation (or the latest), with the workspace's latest bot token."""
        team = None if is_enterprise_install else team_id
        base = workspace_key(enterprise_id, team)
        data = await self._load(f"{base}:installer:{user_id}" if user_id else f"{base}:installer")
        if data is None:
            return None
        installation = Installation(**data)
        bot = await self.async_find_bot(enterprise_id=enterprise_id, team_id=team_id,
                                        is_enterprise_install=is_enterprise_install)  # fmt: skip
        if bot is not None and bot.bot_token != installation.bot_token:
            _take_bot(installation, bot)
        return installation

    async def async_delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        await self._redis.delete(f"{workspace_key(enterprise_id, team_id)}:bot")

    async def async_delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        """One user's installation, or (without a user) every installation of the workspace."""
        base = workspace_key(enterprise_id, team_id)
        if user_id is not None:
            await self._redis.delete(f"{base}:installer:{user_id}")
            await self._redis.srem(f"{base}:users", user_id)
            return
        users = cast(set[str], await self._redis.smembers(f"{base}:users"))
        keys = [f"{base}:installer", f"{base}:users", *(f"{base}:installer:{u}" for u in users)]
        await self._redis.delete(*keys)

    async def _load(self, key: str) -> dict[str, Any] | None:
        raw = await self._redis.get(key)
        return None if raw is None else dict(json.loads(raw))


def _team(installation: Installation) -> str | None:
    return None if installation.is_enterprise_install else installation.team_id


def _take_bot(installation: Installation, bot: Bot) -> None:
    """Give an older installation the workspace's newest bot token (and what goes with it)."""
    installation.bot_id = bot.bot_id
    installation.bot_user_id = bot.bot_user_id
    installation.bot_token = bot.bot_token
    installation.bot_scopes = bot.bot_scopes
    installation.bot_refresh_token = bot.bot_refresh_token
    installation.bot_token_expires_at = bot.bot_token_expires_at


class RedisOAuthStateStore(AsyncOAuthStateStore):
    """OAuth `state` values that expire and can be consumed once (a replayed callback fails)."""

    def __init__(self, redis: RedisClient, expiration_seconds: int = STATE_SECONDS) -> None:
        self._redis = redis
        self._seconds = expiration_seconds

    @property
    def logger(self) -> logging.Logger:
        return log

    async def async_issue(self, *args: Any, **kwargs: Any) -> str:
        state = secrets.token_urlsafe(24)
        await self._redis.set(f"{STATE_PREFIX}:{state}", "1", ex=self._seconds)
        return state

    async def async_consume(self, state: str) -> bool:
        if not state:
            return False
        return bool(await self._redis.delete(f"{STATE_PREFIX}:{state}"))
