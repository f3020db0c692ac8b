"""The embedded server seen from outside, over its unix socket: does it answer, please save
and exit, has its process exited. Each probe wants an answer at once: no retries."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import redis.asyncio as aioredis
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

STOP_TIMEOUT = 10.0
_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


def _once() -> Retry:
    """No retries: these probes want to know at once whether the server is there."""
    return Retry(NoBackoff(), 0)


async def answers(socket_path: Path) -> bool:
    """Whether a server on the socket answers PING (loading an AOF counts as not yet)."""
    client = Redis(unix_socket_path=str(socket_path), socket_timeout=1.0, retry=_once())
    try:
        return bool(await client.ping())
    except (*_UNREACHABLE, aioredis.ResponseError):
        return False
    finally:
        await client.aclose()


async def shutdown(socket_path: Path) -> None:
    """Ask the server to save and exit; the caller escalates if it does not."""
    client = Redis(unix_socket_path=str(socket_path), socket_timeout=STOP_TIMEOUT, retry=_once())
    try:
        await client.shutdown()
    except (RedisError, OSError):
        pass  # gone already, or refused (e.g. a failing disk): the caller will signal it
    finally:
        await client.aclose()


async def exited(process: subprocess.Popen[bytes], seconds: float) -> bool:
    try:
        await asyncio.to_thread(process.wait, seconds)
    except subprocess.TimeoutExpired:
        return False
    return True
