"""Who a log line is about: the request being served (its id, server, channel and user).

The adapters `bind` these as soon as they know them; a logging filter (bot/logs.py) adds them
to every record written while that request is served. A `ContextVar` follows the request into
the tasks it starts (asyncio copies the context), and never leaks into another request's.
"""

from __future__ import annotations

from contextvars import ContextVar

FIELDS = ("request_id", "server", "channel", "user")

_current: ContextVar[dict[str, str] | None] = ContextVar("shutbox_request", default=None)


def bind(**fields: str | None) -> None:
    """Name the request this task serves from here on (None values are left out)."""
    _current.set({key: value for key, value in fields.items() if value})


def current() -> dict[str, str]:
    """The fields of the request being served ({} outside one)."""
    return _current.get() or {}
