"""Logging for the bot processes: readable lines, or one JSON object per line for collectors.

`setup_logging("INFO", json=True)` once at start-up. The JSON lines come from python-json-logger:
`time`, `level`, `logger`, `message`, then every field passed as `extra=` (request_id, action,
outcome, ms, ...), and `exc_info` / `stack_info` when the record carries them. Text lines start
with the time in UTC, with its offset.

Every line written while a request is served carries its request id, server, channel and user
(adapters/logcontext.py): as fields in JSON, as `[request=... server=...]` at the end of a text
line. A malformed HTTP request (which anyone can send, no signature needed) is one WARNING line,
at most one a minute, never a traceback.
"""

from __future__ import annotations

import logging
import sys
import time
from typing import TextIO

from aiohttp.http_exceptions import HttpProcessingError
from pythonjsonlogger.json import JsonFormatter

from adapters.logcontext import FIELDS, current

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s%(request)s"
JSON_FIELDS = ("levelname", "name", "message")
JSON_NAMES = {"levelname": "level", "name": "logger"}
MALFORMED_EVERY = 60.0  # seconds between two lines about malformed HTTP requests


def json_formatter() -> JsonFormatter:
    """One JSON object per record, with a UTC ISO 8601 `time` first."""
    return JsonFormatter(
        JSON_FIELDS, rename_fields=JSON_NAMES, timestamp="time", json_ensure_ascii=False
    )


class UtcFormatter(logging.Formatter):
    """`2026-12-02T01:02:03.456+00:00`: UTC, whatever the machine's zone, with its offset."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802 - logging's name
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        return f"{stamp}.{int(record.msecs):03d}+00:00"


class RequestFields(logging.Filter):
    """Adds the request being served to every record (fields an `extra=` set already win);
    for text lines, also as one `request` suffix."""

    def __init__(self, text: bool) -> None:
        super().__init__()
        self.text = text

    def filter(self, record: logging.LogRecord) -> bool:
        fields = current()
        shown = []
        for name in FIELDS:
            if name in fields and not hasattr(record, name):
                setattr(record, name, fields[name])
                shown.append(f"{'request' if name == 'request_id' else name}={fields[name]}")
        if self.text:
            record.request = f" [{' '.join(shown)}]" if shown else ""
        return True


class MalformedHttp(logging.Filter):
    """aiohttp's ERROR and traceback for a request it could not parse, as one WARNING line,
    at most once every `every` seconds (with how many were left out meanwhile)."""

    def __init__(self, every: float = MALFORMED_EVERY) -> None:
        super().__init__()
        self.every = every
        self.last = float("-inf")
        self.left_out = 0

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError):
            return True
        now = time.monotonic()
        if now - self.last < self.every:
            self.left_out += 1
            return False
        self.last, left_out = now, self.left_out
        self.left_out = 0
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg = "malformed HTTP request refused: %s%s"
        record.args = (error.message, f" ({left_out} more since the last line)" if left_out else "")
        record.exc_info = record.exc_text = None
        return True


def setup_logging(level: str = "INFO", json: bool = False, stream: TextIO | None = None) -> None:
    """Send every log record to stderr (or `stream`), as text or as JSON lines."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(json_formatter() if json else UtcFormatter(TEXT_FORMAT))
    handler.addFilter(RequestFields(text=not json))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)  # probes every few seconds
    server = logging.getLogger("aiohttp.server")
    for old_filter in [f for f in server.filters if isinstance(f, MalformedHttp)]:
        server.removeFilter(old_filter)
    server.addFilter(MalformedHttp())
