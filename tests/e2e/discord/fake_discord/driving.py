"""What tests do: queue faults, hold answers, send commands and clicks, read what came back."""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Callable

from tests.e2e.discord import payloads
from tests.e2e.discord.fake_discord.messages import buttons
from tests.e2e.discord.fake_discord.records import Fault, Request, Sent
from tests.e2e.discord.payloads import CHANNEL_ID, EPHEMERAL, Json, User
from tests.e2e.discord.signed import Answer, post_signed, shape_problems


class Driving:
    """What tests do: queue faults, hold answers, send commands and clicks, read what came back.

    A part of `FakeDiscord` (server.py), which holds the state these methods use."""

    # -- what tests do --------------------------------------------------------------------

    def fail(self, kind: str, *faults: Fault) -> None:
        """The next `kind` calls ("callback", "channel_edit", "channel_post", "followup") get
        `faults` instead of their answer."""
        self.faults.setdefault(kind, []).extend(faults)

    def hold(self) -> None:
        """Interaction answers wait, unapplied, until `release`."""
        self.holding_callbacks, self._drop_held = True, False

    async def release(self, *, drop: bool = False) -> None:
        """Let held answers go on; with `drop` they fail and never apply (the bot died)."""
        self.holding_callbacks, self._drop_held = False, drop
        if drop:  # those interactions expire unanswered: nothing waits for them any more
            for sent in self.held:
                self.sent.pop(sent.id, None)
        await self._notify()

    async def until(self, check: Callable[[], bool], within: float = 5.0) -> None:
        """Wait until `check()` holds after some request or gateway event."""
        async with asyncio.timeout(within), self._changed:
            await self._changed.wait_for(check)

    async def wait_ready(self, shards: int = 1, within: float = 10.0) -> None:
        """Wait until `shards` gateway connections in all have identified (over HTTP: until
        the endpoint answers Discord's PING, as when its URL is saved in the portal)."""
        if self.mode == "http":
            await asyncio.wait_for(self._pinged(), within)
            return
        await self.until(lambda: self.identified() >= shards, within)

    async def ping(self) -> Answer:
        """Discord's PING, signed, to the bot's endpoint."""
        return await post_signed(self.endpoint, self.signer, payloads.ping())

    async def _pinged(self) -> None:
        while True:
            try:
                if (await self.ping()).body == {"type": 1}:
                    return
            except OSError:  # not listening yet
                pass
            await asyncio.sleep(0.1)

    def outbound(self, since: int = 0) -> list[Request]:
        """The REST requests the bot made since `since` (an index into `requests`)."""
        return self.requests[since:]

    def identified(self) -> int:
        """How many gateway connections have identified and are still open."""
        return sum(1 for c in self.connections if c.shard is not None and not c.socket.closed)

    async def settle(self, quiet: float = 0.05, within: float = 5.0) -> None:
        """Wait until every interaction is answered and the bot has made no request for a while."""
        await self.until(lambda: all(s.answer is not None for s in self.sent.values()), within)
        deadline = time.monotonic() + within
        while time.monotonic() - self._last_request < quiet:
            if time.monotonic() > deadline:
                raise TimeoutError("the bot kept making requests")
            await asyncio.sleep(quiet / 2)

    def dm_channel(self, user: User) -> int:
        return self.dms.setdefault(user.id, payloads.snowflake())

    def _channel(self, user: User, direct: bool, channel_id: int) -> Json:
        if direct:
            return payloads.dm_channel(self.dm_channel(user), user)
        return payloads.guild_channel(channel_id)

    async def command(
        self, user: User, name: str, *, direct: bool = False, channel_id: int = CHANNEL_ID,
        options: dict[str, object] | None = None, **named: object,
    ) -> Sent:  # fmt: skip
        """`/shutbox <name> option:value ...` typed by `user` (in a DM with the bot if `direct`);
        options under their registered names, e.g. `options={"last-die": True}`."""
        data = payloads.command_data(name, {**(options or {}), **named})
        return await self._deliver(2, user, data, self._channel(user, direct, channel_id), None)

    async def click(
        self, user: User, message_id: int, custom_id: str | None = None, *,
        snapshot: Json | None = None,
    ) -> Sent:  # fmt: skip
        """`user` presses a button (the first one by default) of a message as it stands now,
        or as it stood in `snapshot` (an outdated copy the user still has on screen)."""
        shown = copy.deepcopy(snapshot or self.messages[message_id])
        custom_id = custom_id or buttons(shown)[0]["custom_id"]
        data = {"custom_id": custom_id, "component_type": 2}
        channel = self._channel_of(user, int(shown["channel_id"]))
        return await self._deliver(3, user, data, channel, shown)

    def _channel_of(self, user: User, channel_id: int) -> Json:
        if channel_id in self.dms.values():
            return payloads.dm_channel(channel_id, user)
        return payloads.guild_channel(channel_id)

    async def redeliver(self, sent: Sent) -> None:
        """The same interaction (same id and token) delivered again, as after a gateway resume
        (over HTTP: POSTed again, once the first POST is answered)."""
        if self.mode == "http":
            if sent.posting is not None:
                await asyncio.shield(sent.posting)
            sent.posting = asyncio.create_task(self._post_interaction(sent))
            return
        connection = self._shard_for("guild_id" in sent.payload)
        await self._dispatch_to(connection, "INTERACTION_CREATE", sent.payload)

    async def _deliver(
        self, kind: int, user: User, data: Json, channel: Json, message: Json | None
    ) -> Sent:
        iid = payloads.snowflake()
        token = f"token-{iid}"
        payload = payloads.interaction(
            kind, user, data, interaction_id=iid, token=token, channel=channel, message=message
        )
        clicked = int(message["id"]) if message is not None else None
        sent = Sent(iid, token, payload, int(channel["id"]), clicked, time.monotonic())
        self.sent[iid] = sent
        if self.mode == "http":
            sent.posting = asyncio.create_task(self._post_interaction(sent))
            return sent
        connection = self._shard_for(channel["type"] == payloads.TEXT_CHANNEL)
        sent.shard = connection.shard[0] if connection.shard else 0
        await self._dispatch_to(connection, "INTERACTION_CREATE", payload)
        return sent

    async def _post_interaction(self, sent: Sent) -> None:
        """POST the interaction, signed, and apply the bot's answer as Discord would."""
        answer = await post_signed(self.endpoint, self.signer, sent.payload)
        sent.replies.append(answer)
        if answer.body is not None:
            self.problems += shape_problems(int(sent.payload["type"]), answer.body)
        if answer.status == 200 and answer.body is not None and sent.answer is None:
            sent.callbacks.append(answer.body)
            sent.answer, sent.answered_at = answer.body, time.monotonic()
            self._answer(sent, int(answer.body["type"]), answer.body.get("data") or {}, ())
        self._last_request = time.monotonic()
        await self._notify()

    async def answered(self, sent: Sent, within: float = 5.0) -> Sent:
        """Wait for the bot's answer to `sent`, and for anything it sends right after."""
        await self.until(lambda: sent.answer is not None, within)
        await self.settle()
        return sent

    def channel_messages(self, channel_id: int = CHANNEL_ID, *, public: bool = True) -> list[Json]:
        """The messages in a channel in order (public ones only unless asked)."""
        found = [self.messages[m] for m in self.order if m not in self.deleted]
        found = [m for m in found if m["channel_id"] == str(channel_id)]
        return [m for m in found if not public or not int(m["flags"]) & EPHEMERAL]

    def requests_to(self, method: str, fragment: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and fragment in r.path]
