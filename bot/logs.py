"""Logging for the bot processes: readable lines, or one JSON object per line for collectors.

`setup_logging("INFO", json=True)` once at start-up; fields passed as `extra=` (request_id,
action, outcome, ...) become keys of the JSON object.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Attributes every LogRecord has; anything else on a record came in through `extra=`.
_STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, then the `extra=` fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(_extra_fields(record))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def _extra_fields(record: logging.LogRecord) -> dict[str, Any]:
    fields = record.__dict__.items()
    return {key: value for key, value in fields if key not in _STANDARD and key[0] != "_"}


def setup_logging(level: str = "INFO", json: bool = False, stream: TextIO | None = None) -> None:
    """Send every log record to stderr (or `stream`), as text or as JSON lines."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if json else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)  # probes every few seconds
