"""What a Redis failure means to a user: one narrow error each, with a catalog key.

Redis' own text (`READONLY You can't write against a read only replica`, `OOM command not
allowed`, a script's error) goes to the log as one line; no chat user ever sees it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ReadOnlyError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from core.service.model.ports import OutcomeUnknown, StoreUnavailable

__all__ = ["OutcomeUnknown", "StoreFull", "StoreReadOnly", "StoreRefused", "StoreUnavailable",
           "never_sent", "reachable"]  # fmt: skip

# redis-py's pools hand out a connection through this method, which connects it first (and
# reconnects one the server closed): a failure there happened before any byte of the command
# was written. A failure inside the command's own retries may follow a lost reply instead.
_CONNECTING = "get_connection"

log = logging.getLogger(__name__)


class StoreReadOnly(StoreUnavailable):
    """Redis refuses writes (READONLY: a replica, e.g. right after a failover)."""

    key = "error.redis.readonly"


class StoreFull(StoreUnavailable):
    """Redis is out of memory and refuses writes (OOM under `noeviction`)."""

    key = "error.redis.full"


class StoreRefused(StoreUnavailable):
    """Redis refused a command or the commit script (NOSCRIPT again after loading it, a script
    error). Its text is for the log only: no chat user sees it."""

    key = "error.redis.refused"


@contextmanager
def reachable() -> Iterator[None]:
    """Turn a lost, slow or refusing Redis into the narrow errors adapters know how to show.

    Redis' own text goes to the log (one line), never into a reply.
    """
    try:
        yield
    except (RedisConnectionError, RedisTimeoutError) as exc:
        raise StoreUnavailable() from exc
    except ResponseError as exc:
        error = _refusal(exc)
        log.warning("redis refused a command (%s): %s", type(error).__name__, exc)
        raise error from exc


def _refusal(exc: ResponseError) -> StoreUnavailable:
    """The narrow error for a Redis error reply (inside a script too, where it is wrapped)."""
    text = str(exc)
    if isinstance(exc, ReadOnlyError) or "READONLY" in text:
        return StoreReadOnly()
    if text.startswith("OOM") or "OOM command not allowed" in text:
        return StoreFull()
    return StoreRefused()


def never_sent(error: BaseException) -> bool:
    """Whether Redis could not even be connected to, so the command was never written.

    Only then is "nothing was changed" known at once; a command that failed later (a lost
    reply, even one followed by refused reconnects) may have run.
    """
    failure = error.__cause__ if isinstance(error, StoreUnavailable) else error
    if not isinstance(failure, RedisConnectionError):
        return False
    frame = failure.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code.co_name == _CONNECTING:
            return True
        frame = frame.tb_next
    return False
