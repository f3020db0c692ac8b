"""One interaction's answer taken out of discord.py and put into the HTTP response.

discord.py answers an interaction through its webhook adapter (`async_context`): the first
answer is a POST to `/interactions/{id}/{token}/callback`, the rest go to the interaction's
webhook. Over HTTP, Discord wants that first answer as the response to its own POST instead.
`Exchange` is the adapter for one interaction: it hands the first answer to the waiting HTTP
handler, and makes every later webhook call wait until that response has gone out.

Two first answers cannot travel in the response body: one with files (Discord takes no upload
there) and a new public game message (the game keeps the message's id, and a response body
carries none). Those are deferred in the response (type 5, or 6 for a click) and then written
by the webhook (`PATCH .../messages/@original`), which returns the message and its id.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
from discord.http import MultipartParameters
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

Json = dict[str, Any]
EPHEMERAL = 1 << 6  # message flag: only the user who acted sees it
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE = 6
UPDATE_MESSAGE = 7
DEFERRED = {CHANNEL_MESSAGE: DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE: DEFERRED_UPDATE}


def callback_payload(params: MultipartParameters) -> Json:
    """The interaction response discord.py built (`{"type": ..., "data": ...}`)."""
    if params.payload is not None:
        return dict(params.payload)
    part = next(part for part in params.multipart or () if part["name"] == "payload_json")
    return dict(json.loads(part["value"]))


def needs_webhook(params: MultipartParameters, answer: Json) -> bool:
    """Whether the answer must be written by the webhook after a deferral (see the module)."""
    if params.files:
        return True
    data = answer.get("data") or {}
    public = not int(data.get("flags") or 0) & EPHEMERAL
    return answer.get("type") == CHANNEL_MESSAGE and public and bool(data.get("embeds"))


def deferral(answer: Json) -> Json:
    """The deferred form of an answer: Discord shows "thinking" (or nothing, for a click)."""
    kind = DEFERRED.get(int(answer["type"]), int(answer["type"]))
    flags = int((answer.get("data") or {}).get("flags") or 0) & EPHEMERAL
    return {"type": kind, "data": {"flags": flags}} if flags else {"type": kind}


class Exchange(AsyncWebhookAdapter):
    """discord.py's webhook adapter for one interaction received over HTTP."""

    def __init__(self, interaction_id: int, application_id: int, component: bool) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.interaction_id, self.application_id = interaction_id, application_id
        self.component = component  # a click (else a command)
        self.answer: asyncio.Future[Json] = asyncio.get_running_loop().create_future()
        self.sent = asyncio.Event()  # the HTTP response is out: the webhook may be used

    def create_interaction_response(
        self,
        interaction_id: int,
        token: str,
        *,
        session: aiohttp.ClientSession,
        proxy: str | None = None,
        proxy_auth: aiohttp.BasicAuth | None = None,
        params: MultipartParameters,
    ) -> Any:
        if interaction_id != self.interaction_id or self.answer.done():
            # Not the first answer: through the callback route, refused as Discord refuses it
            return super().create_interaction_response(
                interaction_id, token, session=session, proxy=proxy, proxy_auth=proxy_auth,
                params=params,
            )  # fmt: skip
        return self._answer(token, session, params)

    async def _answer(
        self, token: str, session: aiohttp.ClientSession, params: MultipartParameters
    ) -> Json:
        answer = callback_payload(params)
        if not needs_webhook(params, answer):
            self.answer.set_result(answer)
            return self._callback(answer, None)
        self.answer.set_result(deferral(answer))
        message: Json = await self.edit_original_interaction_response(  # type: ignore[assignment]
            self.application_id, token, session=session, **self._edit(params, answer)
        )
        return self._callback(answer, message)

    @staticmethod
    def _edit(params: MultipartParameters, answer: Json) -> Json:
        """The webhook edit that writes `answer` into the deferred message."""
        data = answer.get("data") or {}
        if not params.files:
            return {"payload": data}
        multipart = [{"name": "payload_json", "value": json.dumps(data)}]
        multipart += [p for p in params.multipart or () if p["name"] != "payload_json"]
        return {"multipart": multipart, "files": params.files}

    def _callback(self, answer: Json, message: Json | None) -> Json:
        """What Discord's callback route would have returned (discord.py reads the message)."""
        flags = int((answer.get("data") or {}).get("flags") or 0)
        shown: Json = {
            "id": str(self.interaction_id), "type": answer["type"],
            "response_message_id": message["id"] if message else None,
            "response_message_loading": int(answer["type"]) == DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(flags & EPHEMERAL),
        }  # fmt: skip
        if message is None:
            return {"interaction": shown}
        return {"interaction": shown, "resource": {"type": answer["type"], "message": message}}

    def given(self) -> Json | None:
        """The first answer, once there is one (`click.answers.FirstAnswer`)."""
        return self.answer.result() if self.answer.done() else None

    async def give(self, answer: Json) -> bool:
        """Answer with `answer` (a click answered from its JSON); False if answered already."""
        if self.answer.done():
            return False
        self.answer.set_result(answer)
        return True

    async def settle(self) -> None:
        self.acknowledge()

    def release(self) -> None:
        self.acknowledge()

    def acknowledge(self) -> None:
        """Answer now, showing nothing new, unless discord.py has answered already."""
        if not self.answer.done():
            quiet = {"type": DEFERRED_CHANNEL_MESSAGE, "data": {"flags": EPHEMERAL}}
            self.answer.set_result({"type": DEFERRED_UPDATE} if self.component else quiet)

    async def request(self, *args: Any, **kwargs: Any) -> Any:
        """Every webhook call waits for the HTTP response: Discord only knows the interaction
        as answered once that response has arrived."""
        await self.sent.wait()
        return await super().request(*args, **kwargs)


def settle_unanswered() -> None:
    """An interaction handled without an answer (delivered again: its first delivery answers)
    gets its HTTP response at once rather than after the wait (nothing over the gateway)."""
    exchange = async_context.get()
    if isinstance(exchange, Exchange):
        exchange.acknowledge()
