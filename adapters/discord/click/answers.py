"""A click's first answer, which either mode takes its own way: over HTTP the response to
Discord's POST (`http.exchange.Exchange`), over the gateway a POST to the interaction's callback
(`Callback`). Both are discord.py's webhook adapter for the click, so an answer discord.py gives
(once its surface is built) is seen as the first answer too."""

from __future__ import annotations

from typing import Any, Protocol

import aiohttp
from discord.http import HTTPClient, MultipartParameters
from discord.webhook.async_ import AsyncWebhookAdapter

from adapters.discord.http.exchange import DEFERRED_UPDATE, UPDATE_MESSAGE, Json, callback_payload

__all__ = ["UPDATE_MESSAGE", "Callback", "FirstAnswer", "Json"]


class FirstAnswer(Protocol):
    def given(self) -> Json | None:
        """The interaction's first answer, once it has one (given here or by discord.py)."""

    async def give(self, answer: Json) -> bool:
        """Answer with `answer`; False (and nothing sent) if the interaction has its answer."""

    async def settle(self) -> None:
        """Acknowledge the click silently unless it has its answer."""

    def release(self) -> None:
        """The click's handling is over: over HTTP its response goes out now (acknowledged if
        nothing answered, e.g. a repeated delivery); over the gateway nothing is sent."""


class Callback(AsyncWebhookAdapter):
    """Over the gateway: the first answer POSTed to `/interactions/{id}/{token}/callback`."""

    def __init__(self, data: Json, http: HTTPClient) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.interaction_id, self.token = int(data["id"]), str(data["token"])
        self.http = http
        self.first: Json | None = None

    def given(self) -> Json | None:
        return self.first

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
        if interaction_id == self.interaction_id and self.first is None:
            self.first = callback_payload(params)  # discord.py's surface answered
        return super().create_interaction_response(
            interaction_id, token, session=session, proxy=proxy, proxy_auth=proxy_auth,
            params=params,
        )  # fmt: skip

    async def give(self, answer: Json) -> bool:
        if self.first is not None:
            return False
        self.first = answer
        params = MultipartParameters(payload=answer, multipart=None, files=None)
        session: aiohttp.ClientSession = self.http._HTTPClient__session  # type: ignore[attr-defined]
        await super().create_interaction_response(
            self.interaction_id, self.token, session=session, proxy=self.http.proxy,
            proxy_auth=self.http.proxy_auth, params=params,
        )  # fmt: skip
        return True

    async def settle(self) -> None:
        await self.give({"type": DEFERRED_UPDATE})

    def release(self) -> None:
        """A repeated delivery is answered by its first: nothing goes to Discord."""
