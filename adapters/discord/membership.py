"""Who has left a guild, as Discord says: `GET /guilds/{guild}/members/{user}` answers 404
"Unknown Member" (10007) for a member who left, "Unknown User" (10013) for a deleted account.
Any other failure leaves the member in: nobody is taken out of anything on a guess."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import aiohttp
import discord

from core.service.model.commit import Scope

log = logging.getLogger(__name__)
GONE_CODES = frozenset({10007, 10013})  # Unknown Member, Unknown User


class GuildMembership:
    """The `Membership` port over Discord's REST API (core/service/model/membership.py)."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    async def left(self, scope: Scope, users: Sequence[str]) -> frozenset[str]:
        gone = set()
        for user in users:
            if not (user.isdigit() and scope.server.isdigit()):
                continue  # a bot's seat, or not a Discord id: nobody to ask about
            try:
                await self._client.http.get_member(int(scope.server), int(user))
            except discord.NotFound as error:
                if error.code in GONE_CODES:
                    gone.add(user)
            except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
                log.warning("could not tell whether %s is still in guild %s: %s", user,
                            scope.server, error)  # fmt: skip
        return frozenset(gone)
