"""What reaches bolt over HTTP is a signed request with a payload of the expected shape.

bolt reads the body before it checks the signature, and takes both on trust: a timestamp that
is not a number, a body that is not UTF-8, `payload=` of broken JSON, a JSON list, `"actions":
null` all end in an exception and an HTTP 500 with a traceback. This middleware answers them
first: 401 for anything unsigned (as bolt does), 400 for a signed body that is not a payload,
each with one warning line that names the problem and nothing of the body.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
TIMESTAMP = re.compile(r"[0-9]{1,12}")
WINDOW = 5 * 60  # seconds a signature stays valid, as bolt and Slack have it
# Parts of a payload that bolt reads as objects when they are there at all.
OBJECTS = ("team", "user", "channel", "container", "message", "enterprise", "event", "view",
           "item", "previous_message", "assistant_thread", "function_data", "state")  # fmt: skip


class BadRequest(ValueError):
    """A request that must not reach bolt; `str()` is the reason, safe to log."""


def guard(secret: str, path: str) -> Any:
    """An aiohttp middleware that checks POSTs to `path` before bolt sees them."""
    key = secret.encode()

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method != "POST" or request.path != path:
            return await handler(request)
        try:
            signed = await _signed_body(request, key)
        except BadRequest as refused:
            return _refuse(request, 401, str(refused))
        try:
            check_payload(parse_body(_text(signed), request.content_type))
        except BadRequest as refused:
            return _refuse(request, 400, str(refused))
        try:
            return await handler(request)
        except web.HTTPException:
            raise
        except Exception as error:  # a shape bolt cannot take that the checks above let by
            return _refuse(request, 400, f"bolt could not read it ({type(error).__name__})")

    return middleware


async def _signed_body(request: web.Request, key: bytes) -> bytes:
    """The body as text, if the request carries a valid, fresh signature over its bytes.

    Checked over the raw bytes (slack_sdk's verifier decodes them first, and fails on binary).
    """
    stamp = request.headers.get("X-Slack-Request-Timestamp", "")
    if not TIMESTAMP.fullmatch(stamp):
        raise BadRequest("the request timestamp is not a number")
    if abs(time.time() - int(stamp)) > WINDOW:
        raise BadRequest("the request timestamp is more than five minutes off")
    raw = await request.read()
    digest = hmac.new(key, b"v0:" + stamp.encode() + b":" + raw, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(f"v0={digest}", request.headers.get("X-Slack-Signature", "")):
        raise BadRequest("invalid signature")
    return raw


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text") from None


def parse_body(body: str, content_type: str) -> Any:
    """The payload as bolt will read it (JSON, `payload=` JSON in a form, or a plain form)."""
    try:
        if content_type == "application/json" or body.startswith("{"):
            return json.loads(body)
        form = dict(parse_qsl(body, keep_blank_values=True))
        return json.loads(form["payload"]) if "payload" in form else form
    except ValueError:
        raise BadRequest("the payload is not valid JSON") from None


def check_payload(payload: Any) -> None:
    """Refuse what is not a Slack payload object of the shape our listeners read."""
    if not isinstance(payload, dict):
        raise BadRequest(f"the payload is a JSON {type(payload).__name__}, not an object")
    for name in OBJECTS:
        if payload.get(name) is not None and not isinstance(payload[name], dict):
            raise BadRequest(f"`{name}` is not an object")
    if not _list_of_objects(payload.get("authorizations", [])):
        raise BadRequest("`authorizations` is not a list of objects")
    if payload.get("type") == "block_actions":
        actions = payload.get("actions")
        if not actions or not _list_of_objects(actions):
            raise BadRequest("`actions` is not a list of actions")
        if not all(isinstance(action.get("action_id"), str) for action in actions):
            raise BadRequest("an action without an action_id")
    if "command" in payload and not all(
        isinstance(payload.get(field), str) and payload[field]
        for field in ("command", "user_id", "channel_id")
    ):
        raise BadRequest("a slash command without its user or channel")


def _list_of_objects(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) for item in value)


def _refuse(request: web.Request, status: int, reason: str) -> web.Response:
    log.warning("slack request refused with %d: %s (from %s)", status, reason, request.remote)
    return web.json_response({"error": "invalid request"}, status=status)
