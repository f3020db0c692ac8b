"""`POST /discord/interactions`: Discord's Interactions Endpoint URL, answered in the response.

Translate, dispatch, translate back: the signature is checked (a bad or missing one gets 401 and
nothing else happens), a PING gets a PONG, a game click is answered from its JSON
(adapters/discord/click/), and any other interaction goes to discord.py exactly as a gateway
event would (its command tree, its dynamic buttons, our `answer`); either way an `Exchange` is
the webhook adapter, so that the first answer becomes this response.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import orjson
from aiohttp import web
from discord.webhook.async_ import async_context

from adapters.discord.http.exchange import (
    CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    Exchange,
    Json,
)
from adapters.discord.http.signature import Signatures
from adapters.discord.interactions import OUR_LOCALES
from adapters.http import Handler
from core.game.numbers import is_digits
from core.text.i18n import normalize_lang, t

log = logging.getLogger(__name__)

INTERACTIONS_PATH = "/discord/interactions"
PING, PONG = 1, 1
COMPONENT = 3
KINDS = (2, 3, 4, 5)  # application command, component, autocomplete, modal submit
# the answer is deferred after 2 s (interactions.ANSWER_BUDGET); Discord waits 3 s in all
ANSWER_WITHIN = 2.8

Receive = Callable[[Json], None]


def interactions_handler(signatures: Signatures, receive: Receive) -> Handler:
    """The aiohttp handler; `receive` hands a verified interaction to discord.py."""

    async def handle(request: web.Request) -> web.StreamResponse:
        body = await request.read()
        headers = request.headers
        timestamp = headers.get("X-Signature-Timestamp", "")
        if not signatures.genuine(timestamp, headers.get("X-Signature-Ed25519", ""), body):
            return web.Response(status=401)
        interaction = _parsed(body)
        if interaction is None:
            return web.Response(status=400, text="not a Discord interaction\n")
        if interaction["type"] == PING:
            return _json({"type": PONG})
        return await _exchanged(request, interaction, receive)

    return handle


def _parsed(body: bytes) -> Json | None:
    """The interaction, if the body is one we can dispatch (Discord signed it, but be sure)."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict) or data.get("type") not in (PING, *KINDS):
        return None
    ids = (data.get("id"), data.get("application_id"))
    if data["type"] != PING and not all(isinstance(i, str) and is_digits(i) for i in ids):
        return None
    return data


async def _exchanged(
    request: web.Request, interaction: Json, receive: Receive
) -> web.StreamResponse:
    exchange = Exchange(
        int(interaction["id"]), int(interaction["application_id"]), interaction["type"] == COMPONENT
    )
    try:
        dispatched = async_context.set(exchange)  # the tasks discord.py starts inherit it
        try:
            receive(interaction)
        finally:
            async_context.reset(dispatched)
        answer = await _first_answer(exchange, interaction)
        response = _json(answer)
        await response.prepare(request)
        await response.write_eof()
        return response
    except (KeyError, TypeError, ValueError):
        log.warning("interaction %s could not be read", interaction.get("id"), exc_info=True)
        return web.Response(status=400, text="not a Discord interaction\n")
    finally:
        exchange.sent.set()


async def _first_answer(exchange: Exchange, interaction: Json) -> Json:
    """The answer discord.py gave in time, else one that leaves nobody waiting: a click is
    acknowledged silently, a command told privately that something went wrong."""
    # a timer rather than `wait_for`: this runs for every POST, nearly always well in time
    late = asyncio.get_running_loop().call_later(ANSWER_WITHIN, _answer_late, exchange, interaction)
    try:
        return await asyncio.shield(exchange.answer)  # the click's task still reads it
    finally:
        late.cancel()


def _answer_late(exchange: Exchange, interaction: Json) -> None:
    if exchange.answer.done():
        return
    log.warning("interaction %s got no answer in time", interaction["id"])
    if interaction["type"] == COMPONENT:
        fallback: Json = {"type": DEFERRED_UPDATE}
    else:
        text = t(_lang(interaction), "error.generic")
        fallback = {"type": CHANNEL_MESSAGE, "data": {"content": text, "flags": EPHEMERAL}}
    exchange.answer.set_result(fallback)


def _lang(interaction: Json) -> str:
    primary = str(interaction.get("locale") or "en").split("-")[0].lower()
    return normalize_lang(primary) if primary in OUR_LOCALES else "en"


def _json(data: Json) -> web.Response:
    return web.Response(body=orjson.dumps(data), content_type="application/json")
