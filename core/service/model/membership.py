"""Whether members are still in their server, as a port the platforms implement: Discord asks
for the guild member (404 "Unknown Member": left), Slack asks `users.info` (deleted, or no such
user in the workspace). A member the platform can't tell about (an error, a rate limit) counts
as still in: nobody is ever taken out of anything on a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.service.model.commit import Scope


class Membership(Protocol):
    async def left(self, scope: Scope, users: Sequence[str]) -> frozenset[str]:
        """Those of `users` the platform says have left the server."""
        ...


class NobodyLeft:
    """Where no platform can tell (the playground, tools): everyone is still in."""

    async def left(self, scope: Scope, users: Sequence[str]) -> frozenset[str]:
        return frozenset()
