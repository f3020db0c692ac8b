"""`/healthz` and `/metrics`: served with aiohttp, read by probes, Prometheus and the image."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import redis.asyncio as aioredis
from redis.asyncio import Redis

from bot.health import HealthSources, serving
from bot.metrics import CONTENT_TYPE
from bot.runtime import Runtime, open_runtime, serving_health
from bot.settings import Settings
from bot.telemetry import Telemetry
from core.manager.settings import StartOptions
from tests.integration.manager_helpers import Table

DOCKERFILE = Path(__file__).resolve().parents[2] / "deploy" / "Dockerfile"


@pytest.fixture
async def runtime(redis: Redis, redis_url: str, tmp_path: Path) -> AsyncIterator[Runtime]:
    async with open_runtime(redis_url, tmp_path) as opened:
        yield opened


async def fetch(port: int, path: str) -> tuple[int, str, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, response.headers["Content-Type"], await response.text()


async def get_json(port: int, path: str = "/healthz") -> tuple[int, object]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.json()


def sources(runtime: Runtime) -> HealthSources:
    return HealthSources(runtime.redis, runtime.telemetry, lambda: len(runtime.manager.games))


async def test_healthy_when_redis_answers_and_platforms_are_connected(runtime: Runtime) -> None:
    """200 with JSON once Redis answers PING and every served platform reports connected."""
    runtime.telemetry.platforms.expect("discord")
    runtime.telemetry.platforms.connected("discord")
    async with serving(sources(runtime), "127.0.0.1", 0) as port:
        status, body = await get_json(port)
    assert status == 200
    assert body == {"status": "ok", "redis": "ok", "platforms": {"discord": "connected"}}


async def test_unhealthy_until_connected_and_after_a_disconnect(runtime: Runtime) -> None:
    """503 while a platform is starting or disconnected; the JSON says which."""
    platforms = runtime.telemetry.platforms
    platforms.expect("slack")
    async with serving(sources(runtime), "127.0.0.1", 0) as port:
        starting = await get_json(port)
        platforms.connected("slack")
        connected = await get_json(port)
        platforms.disconnected("slack")
        dropped = await get_json(port)
    assert starting == (503, {"status": "unhealthy", "redis": "ok",
                              "platforms": {"slack": "starting"}})  # fmt: skip
    assert connected[0] == 200
    assert dropped[0] == 503 and dropped[1]["platforms"] == {"slack": "disconnected"}  # type: ignore[index]


async def test_unhealthy_when_redis_is_out_of_reach(unused_tcp_port: int) -> None:
    """503 saying what went wrong when PING cannot get through (redis-py retries first)."""
    client = aioredis.Redis(port=unused_tcp_port, socket_timeout=1)
    async with serving(HealthSources(client, Telemetry()), "127.0.0.1", 0) as port:
        status, body = await get_json(port)
    await client.aclose()
    assert status == 503
    assert body["status"] == "unhealthy" and body["redis"] != "ok"  # type: ignore[index]


async def test_metrics_count_actions_and_games_in_prometheus_format(runtime: Runtime) -> None:
    """/metrics: actions by outcome, a latency histogram, and the games in Redis."""
    table = Table(runtime.manager, channel="c1")
    await runtime.manager.start(table.ctx("Ann"), StartOptions())
    await runtime.manager.start(Table(runtime.manager, channel="c2").ctx("Bob"), StartOptions())
    await runtime.manager.join(table.ctx("Ann"))  # already seated: refused
    async with serving(sources(runtime), "127.0.0.1", 0) as port:
        status, content_type, text = await fetch(port, "/metrics")
    assert status == 200 and content_type == CONTENT_TYPE
    assert 'shutbox_actions_total{action="start",outcome="ok"} 2' in text
    assert 'shutbox_actions_total{action="join",outcome="refused"} 1' in text
    assert 'shutbox_action_seconds_bucket{action="start",le="+Inf"} 2' in text
    assert 'shutbox_action_seconds_count{action="join"} 1' in text
    assert "shutbox_active_games 2" in text.splitlines()
    assert "shutbox_redis_up 1" in text.splitlines()
    assert "# TYPE shutbox_errors_total counter" in text
    samples = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert all(re.fullmatch(r"[a-z_]+(\{.*\})? [0-9.e+-]+|.* \+Inf", line) for line in samples)


async def test_serving_health_follows_the_port_setting(
    runtime: Runtime, unused_tcp_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SHUTBOX_HEALTH_PORT picks the port; the platforms given are expected; 0 serves nothing."""
    monkeypatch.setenv("SHUTBOX_HEALTH_PORT", str(unused_tcp_port))
    monkeypatch.setenv("SHUTBOX_HEALTH_HOST", "127.0.0.1")
    async with serving_health(Settings(), runtime, ["discord"]) as port:
        assert port == unused_tcp_port
        status, body = await get_json(port)
    assert status == 503 and body["platforms"] == {"discord": "starting"}  # type: ignore[index]
    monkeypatch.setenv("SHUTBOX_HEALTH_PORT", "0")
    async with serving_health(Settings(), runtime) as port:
        assert port is None


async def test_the_image_healthcheck_command_passes_only_when_healthy(runtime: Runtime) -> None:
    """The Dockerfile's HEALTHCHECK command exits 0 on a healthy bot and 1 on an unhealthy one."""
    command = _healthcheck_command()
    platforms = runtime.telemetry.platforms
    async with serving(sources(runtime), "127.0.0.1", 0) as port:
        healthy = await _exit_code(command, port)
        platforms.expect("discord")
        unhealthy = await _exit_code(command, port)
    assert (healthy, unhealthy) == (0, 1)


def _healthcheck_command() -> str:
    text = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith("HEALTHCHECK"))
    return line.split(" CMD ", 1)[1].strip()


async def _exit_code(shell_command: str, port: int) -> int:
    """Run the command the way Docker runs a shell-form HEALTHCHECK, with the image's PATH."""
    env = {**os.environ, "SHUTBOX_HEALTH_PORT": str(port)}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    process = await asyncio.create_subprocess_exec(
        "/bin/sh", "-c", shell_command, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return await asyncio.wait_for(process.wait(), timeout=20)
