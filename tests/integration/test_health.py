"""The probes and `/metrics`: served with aiohttp, read by orchestrators, Prometheus, the image."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import redis.asyncio as aioredis
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio import Redis

from bot.health import HealthSources, serving
from bot.listeners import serving_listeners
from bot.runtime import Runtime, open_runtime
from bot.settings import Settings
from bot.telemetry import Telemetry
from core.service.api.commands import Join, Start
from core.service.model.settings import StartOptions
from tests.integration.manager_helpers import Table
from tests.scale.servers import free_port, redis_server

DOCKERFILE = Path(__file__).resolve().parents[2] / "deploy" / "Dockerfile"
PROBES = ("/livez", "/readyz", "/healthz")


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
    return HealthSources(runtime.redis, runtime.telemetry, lambda: len(runtime.manager.games),
                         store=runtime.store)  # fmt: skip


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parsed(text: str) -> tuple[set[str], Samples]:
    """The exposition read by prometheus-client's own parser: family names, and every sample."""
    names, samples = set(), {}
    for family in text_string_to_metric_families(text):
        names.add(family.name)
        for sample in family.samples:
            samples[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return names, samples


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
    """/metrics parses with prometheus-client: ours, and the process and python collectors."""
    table = Table(runtime.manager, channel="c1")
    await runtime.manager.handle(table.ctx("Ann"), Start(StartOptions()))
    await runtime.manager.handle(
        Table(runtime.manager, channel="c2").ctx("Bob"), Start(StartOptions())
    )
    await runtime.manager.handle(table.ctx("Ann"), Join())  # already seated: refused
    async with serving(sources(runtime), "127.0.0.1", 0) as port:
        status, content_type, text = await fetch(port, "/metrics")
    assert status == 200 and content_type.startswith("text/plain; version=0.0.4")
    names, samples = parsed(text)
    assert {"process_resident_memory_bytes", "process_cpu_seconds", "process_open_fds",
            "python_gc_objects_collected", "python_info"} <= names  # fmt: skip
    assert samples["shutbox_actions_total", (("action", "start"), ("outcome", "ok"))] == 2
    assert samples["shutbox_actions_total", (("action", "join"), ("outcome", "refused"))] == 1
    start_inf = (("action", "start"), ("le", "+Inf"), ("outcome", "ok"))
    assert samples["shutbox_action_seconds_bucket", start_inf] == 2
    assert samples["shutbox_active_games", ()] == 2
    assert samples["shutbox_redis_up", ()] == 1
    assert samples["shutbox_redis_roundtrip_seconds_count", ()] >= 1
    assert samples["shutbox_sweep_lag_seconds", ()] == 0  # the lobbies' deadlines are ahead
    assert "shutbox_errors" in names


async def test_sweep_lag_is_now_minus_the_oldest_passed_deadline(runtime: Runtime) -> None:
    """With no sweep running, a lobby whose expiry passed 90 s ago shows a lag of 90 s."""
    await runtime.manager.handle(
        Table(runtime.manager, channel="c1").ctx("Ann"), Start(StartOptions())
    )
    (deadline,) = await runtime.store.oldest_deadlines()
    late = sources(runtime)
    late.wall_clock = lambda: deadline + 90.0
    runtime.telemetry.platforms.expect("test")  # the game's platform: this process sweeps it
    async with serving(late, "127.0.0.1", 0) as port:
        _, _, text = await fetch(port, "/metrics")
    assert parsed(text)[1]["shutbox_sweep_lag_seconds", ()] == 90.0


async def test_sweep_lag_counts_only_the_platforms_this_process_sweeps(runtime: Runtime) -> None:
    """A Discord bot is not behind on the timers of games of a platform it does not serve."""
    await runtime.manager.handle(
        Table(runtime.manager, channel="c1").ctx("Ann"), Start(StartOptions())
    )
    (deadline,) = await runtime.store.oldest_deadlines()
    late = sources(runtime)
    late.wall_clock = lambda: deadline + 90.0
    runtime.telemetry.platforms.expect("discord")
    async with serving(late, "127.0.0.1", 0) as port:
        _, _, text = await fetch(port, "/metrics")
    assert parsed(text)[1]["shutbox_sweep_lag_seconds", ()] == 0


async def test_openmetrics_is_served_to_a_scraper_that_asks_for_it(runtime: Runtime) -> None:
    """prometheus-client negotiates the format: OpenMetrics for a scraper that accepts it."""
    async with (
        serving(sources(runtime), "127.0.0.1", 0) as port,
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics",
                    headers={"Accept": "application/openmetrics-text"}) as response,
    ):  # fmt: skip
        text = await response.text()
    assert response.headers["Content-Type"].startswith("application/openmetrics-text")
    assert text.rstrip().endswith("# EOF")


async def test_liveness_stays_up_while_readiness_follows_redis(tmp_path: Path) -> None:
    """Redis killed: /livez 200, /readyz and /healthz 503; Redis back on its port: all 200."""
    port = free_port()
    with redis_server(tmp_path / "one", port) as first:
        client = aioredis.Redis(port=port, decode_responses=True, socket_timeout=1)
        async with serving(HealthSources(client, Telemetry()), "127.0.0.1", 0) as health:
            before = [(await get_json(health, path))[0] for path in PROBES]
            first.kill()
            during = [await get_json(health, path) for path in PROBES]
            with redis_server(tmp_path / "two", port):
                after = [(await get_json(health, path))[0] for path in PROBES]
        await client.aclose()
    assert before == [200, 200, 200]
    assert [status for status, _ in during] == [200, 503, 503]
    assert during[0][1] == {"status": "ok"}
    assert during[1][1]["redis"].startswith(("unreachable", "no answer"))  # type: ignore[index]
    assert after == [200, 200, 200]


async def test_serving_health_follows_the_port_setting(
    runtime: Runtime, unused_tcp_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SHUTBOX_HEALTH_PORT picks the port; the platforms given are expected; 0 serves nothing."""
    monkeypatch.setenv("SHUTBOX_HEALTH_PORT", str(unused_tcp_port))
    monkeypatch.setenv("SHUTBOX_HEALTH_HOST", "127.0.0.1")
    async with serving_listeners(Settings(), runtime, ["discord"]) as port:
        assert port == unused_tcp_port
        status, body = await get_json(port)
    assert status == 503 and body["platforms"] == {"discord": "starting"}  # type: ignore[index]
    monkeypatch.setenv("SHUTBOX_HEALTH_PORT", "0")
    async with serving_listeners(Settings(), runtime) as port:
        assert port is None


async def test_the_image_healthcheck_passes_while_the_process_answers(runtime: Runtime) -> None:
    """The Dockerfile's HEALTHCHECK exits 0 while the bot answers, even when it is not ready
    (a platform still connecting), and 1 once nothing answers any more."""
    command = _healthcheck_command()
    async with serving(sources(runtime), "127.0.0.1", 0) as port:
        live = await _exit_code(command, port)
        runtime.telemetry.platforms.expect("discord")
        live_but_not_ready = await _exit_code(command, port)
    gone = await _exit_code(command, port)
    assert (live, live_but_not_ready, gone) == (0, 0, 1)


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


async def test_the_public_listener_serves_board_pictures_and_the_operator_one_does_not(
    runtime: Runtime, unused_tcp_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In Socket Mode (or Discord alone) the public listener is a server of its own: with
    SHUTBOX_PUBLIC_URL and SHUTBOX_IMAGE_SECRET it answers the signed picture URLs on
    SHUTBOX_PUBLIC_PORT; the operator listener never does. Without the URL there is no public
    listener at all."""
    from adapters.pictures import PictureLinks, derived_key

    monkeypatch.setenv("SHUTBOX_HEALTH_PORT", "0")
    monkeypatch.setenv("SHUTBOX_PUBLIC_PORT", str(unused_tcp_port))
    monkeypatch.setenv("SHUTBOX_PUBLIC_HOST", "127.0.0.1")
    monkeypatch.setenv("SHUTBOX_PUBLIC_URL", f"http://127.0.0.1:{unused_tcp_port}")
    monkeypatch.setenv("SHUTBOX_IMAGE_SECRET", "picture key")
    links = PictureLinks(f"http://127.0.0.1:{unused_tcp_port}", derived_key("picture key"))
    path = links.url("12.a5.625.40.w4VzZQ").removeprefix(links.public_url)
    async with serving_listeners(Settings(), runtime):
        async with aiohttp.ClientSession() as session:
            response = await session.get(f"http://127.0.0.1:{unused_tcp_port}{path}")
            png = await response.read()
        metrics = (await fetch(unused_tcp_port, "/metrics"))[0]
    assert (response.status, png[:4]) == (200, b"\x89PNG")
    assert metrics == 404
    monkeypatch.setenv("SHUTBOX_HEALTH_PORT", str(unused_tcp_port))
    monkeypatch.setenv("SHUTBOX_HEALTH_HOST", "127.0.0.1")
    monkeypatch.setenv("SHUTBOX_PUBLIC_PORT", "0")
    async with serving_listeners(Settings(), runtime) as port:
        assert port == unused_tcp_port
        assert (await fetch(port, path))[0] == 404
        assert (await fetch(port, "/metrics"))[0] == 200
