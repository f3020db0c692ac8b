"""The fake Discord's guild members: everyone who interacts is a member, except those a test
says have left (`GET /guilds/{guild}/members/{user}` then answers 404 "Unknown Member")."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from aiohttp import web

UNKNOWN_MEMBER = 10007


@dataclass(slots=True)
class GuildMembers:
    left: set[str] = field(default_factory=set)  # user ids no longer in the guild

    async def member(self, request: web.Request) -> web.Response:
        user = request.match_info["user"]
        if user in self.left:
            return _json({"message": "Unknown Member", "code": UNKNOWN_MEMBER}, 404)
        return _json({
            "user": {"id": user, "username": f"user{user}", "discriminator": "0",
                     "global_name": None, "avatar": None},
            "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False,
        }, 200)  # fmt: skip


def _json(data: object, status: int) -> web.Response:
    """Exactly `application/json`: discord.py reads no JSON from aiohttp's charset suffix."""
    return web.Response(status=status, body=json.dumps(data).encode(),
                        headers={"Content-Type": "application/json"})  # fmt: skip
