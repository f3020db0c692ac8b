"""Logging for the bot processes: readable lines, or one JSON object per line for collectors.

`setup_logging("INFO", json=True)` once at start-up. The JSON lines come from python-json-logger:
`time`, `level`, `logger`, `message`, then every field passed as `extra=` (request_id, action,
outcome, ms, ...), and `exc_info` / `stack_info` when the record carries them.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from pythonjsonlogger.json import JsonFormatter

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
JSON_FIELDS = ("levelname", "name", "message")
JSON_NAMES = {"levelname": "level", "name": "logger"}


def json_formatter() -> JsonFormatter:
    """One JSON object per record, with a UTC ISO 8601 `time` first."""
    return JsonFormatter(
        JSON_FIELDS, rename_fields=JSON_NAMES, timestamp="time", json_ensure_ascii=False
    )


def setup_logging(level: str = "INFO", json: bool = False, stream: TextIO | None = None) -> None:
    """Send every log record to stderr (or `stream`), as text or as JSON lines."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(json_formatter() if json else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)  # probes every few seconds
