"""Request bodies as discord.py sends them: JSON, or multipart/form-data with files.

With files, discord.py sends `payload_json` (the JSON it would otherwise send) and one part per
file, `files[0]`, `files[1]`..., whose index is the `id` the payload's `attachments` give it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from aiohttp import web

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Upload:
    index: int  # n of the part's name `files[n]`
    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Body:
    data: Any  # the JSON (or payload_json) sent, None for no body
    uploads: tuple[Upload, ...] = ()
    multipart: bool = False


async def read_body(request: web.Request) -> Body:
    """The request's JSON and files, whichever way they were sent."""
    if not request.can_read_body:
        return Body(None)
    raw = await request.read()
    if request.content_type != "multipart/form-data":
        return Body(json.loads(raw) if raw else None)
    head = f"Content-Type: {request.headers['Content-Type']}\r\n\r\n".encode()
    message = BytesParser(policy=HTTP).parsebytes(head + raw)
    data: Any = None
    uploads = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = _payload(part)
        if name == "payload_json":
            data = json.loads(payload)
        elif isinstance(name, str) and name.startswith("files["):
            filename = str(part.get_filename() or "")
            index = int(name.removeprefix("files[").removesuffix("]"))
            uploads.append(Upload(index, filename, part.get_content_type(), payload))
    return Body(data, tuple(uploads), multipart=True)


def _payload(part: Message) -> bytes:
    payload = part.get_payload(decode=True)
    return payload if isinstance(payload, bytes) else b""
