"""Discord's side of the HTTP mode: interactions POSTed to the bot's endpoint, signed with the
application's Ed25519 key as Discord signs them, and the bot's HTTP answers recorded."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import aiohttp
from nacl.signing import SigningKey

from tests.e2e.discord.payloads import Json


@dataclass(frozen=True, slots=True)
class Answer:
    """The bot's HTTP response to one POST."""

    status: int
    body: Json | None  # the interaction response, when the status is 200
    text: str


@dataclass(slots=True)
class Signer:
    """The application's key pair: Discord holds the private half, the bot the public one."""

    key: SigningKey = field(default_factory=SigningKey.generate)

    @property
    def public_key(self) -> str:
        return self.key.verify_key.encode().hex()

    def headers(self, body: bytes, timestamp: int | None = None) -> dict[str, str]:
        stamp = str(int(time.time()) if timestamp is None else timestamp)
        signature = self.key.sign(stamp.encode() + body).signature.hex()
        return {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": stamp,
                "Content-Type": "application/json"}  # fmt: skip


async def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """One POST to the bot's Interactions Endpoint URL, as Discord makes it."""
    async with aiohttp.ClientSession() as session, session.post(
        url, data=body, headers=headers
    ) as response:
        text = await response.text()
        parsed = json.loads(text) if response.status == 200 and text else None
        return Answer(response.status, parsed, text)


async def post_signed(url: str, signer: Signer, payload: Json) -> Answer:
    body = json.dumps(payload).encode()
    return await post(url, body, signer.headers(body))


# Discord's interaction response, as its API reference gives it (Receiving and Responding):
# which callback types answer which interaction types, and the fields a message response's
# data may carry, with the message flags allowed there.
ANSWERS_TO = {1: {1}, 2: {4, 5}, 3: {4, 5, 6, 7}}  # interaction type -> callback types
MESSAGE_DATA = {"tts", "content", "embeds", "allowed_mentions", "flags", "components",
                "attachments", "poll"}  # fmt: skip
RESPONSE_FLAGS = (1 << 2) | (1 << 6) | (1 << 12) | (1 << 15)  # no embeds, ephemeral, silent, v2


def shape_problems(interaction_type: int, answer: Json) -> list[str]:
    """What in an HTTP answer Discord's published shapes do not allow (empty: nothing)."""
    kind = answer.get("type")
    if kind not in ANSWERS_TO.get(interaction_type, set()):
        return [f"callback type {kind} does not answer interaction type {interaction_type}"]
    data = answer.get("data") or {}
    problems = [f"unknown data field {name!r}" for name in set(data) - MESSAGE_DATA]
    if kind in (5, 6) and set(data) - {"flags"}:
        problems.append(f"a deferral (type {kind}) carries only flags, not {sorted(data)}")
    if int(data.get("flags") or 0) & ~RESPONSE_FLAGS:
        problems.append(f"flags {data['flags']} are not allowed in a response")
    if kind == 7 and int(data.get("flags") or 0) & (1 << 6):
        problems.append("an update cannot make the message ephemeral")
    if len(data.get("content") or "") > 2000 or len(data.get("embeds") or []) > 10:
        problems.append("content over 2000 characters or more than 10 embeds")
    return problems + component_problems(data.get("components") or [])


def component_problems(rows: list[Json]) -> list[str]:
    """Action rows (type 1), at most 5, of at most 5 buttons (type 2) with a custom id of at
    most 100 characters and a label of at most 80."""
    problems = ["more than 5 action rows"] if len(rows) > 5 else []
    for row in rows:
        items = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(items) <= 5:
            problems.append(f"not an action row of 1 to 5 components: {row}")
        for item in items:
            if item.get("type") != 2 or len(str(item.get("custom_id", ""))) > 100:
                problems.append(f"not a button with a custom id of at most 100: {item}")
            if len(str(item.get("label") or "")) > 80:
                problems.append(f"a label over 80 characters: {item}")
    return problems
