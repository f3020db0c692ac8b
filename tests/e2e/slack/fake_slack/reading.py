"""What tests read and wait for: the calls, the replies, the messages as users see them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.e2e.slack.fake_slack.records import WAIT_SECONDS, Call, Fault, Message, Response


class Reading:
    """What tests read and wait for: the calls, the replies, the messages as users see them.

    A part of `FakeSlack` (server.py), which holds the state these methods use."""

    # -- what tests read ------------------------------------------------------------------

    def called(self, method: str) -> list[Call]:
        return [call for call in self.calls if call.method == method]

    def replies(self, key: str) -> list[Response]:
        return [r for r in self.responses if r.key == key]

    def game_messages(self, channel: str) -> list[Message]:
        """Messages with blocks of their own: game messages and leaderboard pages."""
        found = self.messages.values()
        return [m for m in found if m.channel == channel and m.blocks and not m.summary]

    async def wait_for(self, ready: Callable[[], Any], seconds: float = WAIT_SECONDS) -> Any:
        """Wait until `ready()` is truthy (checked after every call the fake receives)."""
        async with asyncio.timeout(seconds), self._changed:
            while not (result := ready()):
                await self._changed.wait()
            return result

    async def reply(self, key: str) -> Response:
        """The first private reply sent to this response_url."""
        found: list[Response] = await self.wait_for(lambda: self.replies(key))
        return found[0]

    def fail(self, method: str, *faults: Fault) -> None:
        """The next calls of `method` ("response_url" for private answers) get `faults`."""
        self.faults.setdefault(method, []).extend(faults)

    async def _faulted(self, method: str, request: web.Request) -> web.Response | None:
        """The injected answer for this call, if one is queued (None: answer as usual)."""
        queued = self.faults.get(method)
        if not queued:
            return None
        fault = queued.pop(0)
        await asyncio.sleep(fault.stall)
        if fault.reset:
            assert request.transport is not None
            request.transport.close()
            return web.Response(status=500)
        if fault.status == 429:
            headers = {"Retry-After": str(fault.retry_after or 1)}
            return web.json_response({"ok": False, "error": "ratelimited"}, status=429,
                                     headers=headers)  # fmt: skip
        if fault.status >= 500:
            return web.Response(status=fault.status, text="upstream trouble")
        if fault.error:
            return web.json_response({"ok": False, "error": fault.error})
        return None  # a stall only

    def hold(self, method: str) -> None:
        """Calls of `method` wait, unapplied, until `release(method)`."""
        self.held.add(method)

    async def release(self, method: str, *, drop: bool = False) -> None:
        """Let held calls go on; with `drop`, they fail and never apply (their caller died)."""
        if drop:
            self.dropped.add(method)
        self.held.discard(method)
        await self._notify()

    async def _released(self, method: str) -> None:
        async with self._changed:
            while method in self.held:
                await self._changed.wait()
