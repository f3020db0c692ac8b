"""What the store keeps for the server's operators: the audit log and the members' rate limits.

The audit list is written only by the commit and season scripts (the same atomic step as the
action); here it is read. A rate limit is one counter per member and bucket in the server's
hash slot, counted with INCR and given its window's lifetime on the first hit, in one script,
so every bot process shares it.
"""

from __future__ import annotations

from typing import Any

from core.service.features.audit import AUDIT_KEY
from core.service.model import keys
from core.service.model.commit import Scope
from core.store.commit_wire import server_key
from core.store.errors import reachable

# KEYS[1] the counter; ARGV limit, window (ms). Returns 0 when the hit is allowed, else the
# milliseconds until the window ends. A counter that somehow lost its lifetime gets it again at
# its next refusal (its time left is read only then).
RATE_LUA = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n <= tonumber(ARGV[1]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  left = tonumber(ARGV[2])
end
return left
"""


def rate_key(scope: Scope, bucket: str, user: str) -> str:
    return server_key(scope, keys.rate(bucket, user))


class AdminStore:
    """Reads the audit log; counts rate limits (one Redis client, or a cluster's)."""

    def __init__(self, redis: Any) -> None:
        self._redis = redis
        self._rate = redis.register_script(RATE_LUA)

    async def audit_entries(self, scope: Scope, limit: int | None = None) -> list[str]:
        """The server's audit entries as stored, newest first (all of them without `limit`)."""
        last = -1 if limit is None else max(limit, 1) - 1
        with reachable():
            found: list[Any] = await self._redis.lrange(server_key(scope, AUDIT_KEY), 0, last)
        return [str(entry) for entry in found]

    async def hit(self, scope: Scope, bucket: str, user: str, limit: int, window: float) -> float:
        """Count one hit of `user` in `bucket`; 0 if allowed, else seconds until it is again."""
        key = rate_key(scope, bucket, user)
        with reachable():
            left: Any = await self._rate(keys=[key], args=[limit, max(int(window * 1000), 1)])
        return int(left) / 1000
