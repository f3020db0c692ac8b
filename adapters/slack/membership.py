"""Who has left a Slack workspace, as `users.info` says: a deleted account, or no such user
here. Asked afresh (not from the names' cache: a member may have left a minute ago); an answer
Slack could not give (an error, a rate limit) leaves them in."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

import aiohttp
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.members import NO_SUCH_USER
from core.service.features.gifts import plausible_id
from core.service.model.commit import Scope

log = logging.getLogger(__name__)


class WorkspaceMembership:
    """The `Membership` port over Slack's Web API (core/service/model/membership.py)."""

    def __init__(self, client_for: Callable[[str], Awaitable[AsyncWebClient | None]]) -> None:
        self._client_for = client_for

    async def left(self, scope: Scope, users: Sequence[str]) -> frozenset[str]:
        client = await self._client_for(scope.server)
        if client is None:  # no token for this workspace: nobody to ask
            return frozenset()
        return frozenset([user for user in users
                          if plausible_id(user) and await _gone(client, user)])  # fmt: skip


async def _gone(client: AsyncWebClient, user: str) -> bool:
    try:
        response = await client.users_info(user=user)
    except SlackApiError as error:
        return error.response.get("error") in NO_SUCH_USER
    except (SlackClientError, aiohttp.ClientError, TimeoutError) as error:
        log.warning("could not tell whether %s is still in the workspace: %s", user, error)
        return False
    return bool((response.get("user") or {}).get("deleted"))
