"""The playground as a real `shutbox` process: Ctrl-C, at any moment of its start-up or at its
prompt, ends it with exit code 0 and no traceback, and leaves no Redis server behind."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

Process = asyncio.subprocess.Process


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("REDIS_", "SHUTBOX_", "DISCORD_", "SLACK_"))}  # fmt: skip
    return env | {"SHUTBOX_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}


async def _read_until(stream: asyncio.StreamReader, marker: bytes) -> bytes:
    seen = b""
    while marker not in seen:
        chunk = await asyncio.wait_for(stream.read(4096), 60)
        if not chunk:
            break
        seen += chunk
    return seen


async def test_run_with_no_platform_and_no_terminal_exits_2(tmp_path: Path) -> None:
    """`shutbox run` under systemd or in a container (no terminal) with no platform configured:
    one line saying so, exit 2; never the playground's banner and a silent exit 0."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "run", cwd=tmp_path, env=_env(tmp_path / "data"),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    out, errors = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    assert out == b""
    assert errors.decode().splitlines() == [
        "shutbox: no platform is configured: set the Discord or Slack settings (see "
        ".env.example), or run it in a terminal for the playground"
    ]


@pytest.mark.parametrize("command", ["play"])
async def test_ctrl_c_in_the_playground_just_says_goodbye(tmp_path: Path, command: str) -> None:
    """SIGINT while the playground waits for input: "Bye!", no traceback, exit 0, and the
    embedded Redis it started is stopped."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", command, cwd=tmp_path, env=_env(tmp_path / "data"),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    shown = await _read_until(process.stdout, b"to leave")  # the welcome text is out
    while not shown.rstrip().endswith(b">"):  # and the prompt: it waits for input now
        shown += await asyncio.wait_for(process.stdout.read(4096), 60)
    process.send_signal(signal.SIGINT)
    rest, errors = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0
    assert errors.decode() == ""
    assert (shown + rest).decode().rstrip().endswith("Bye!")
    assert not (tmp_path / "data" / "redis.sock").exists()


async def _until(found: Callable[[], bool]) -> None:
    """Wait for a sign of where the start-up is (a failure guard only: never a measure)."""
    for _ in range(6000):
        if found():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the sign never came")


def _loading(process: Process) -> Callable[[], bool]:
    """The process has pydantic's compiled core mapped: it is loading the project's modules."""
    maps = Path(f"/proc/{process.pid}/maps")
    return lambda: "_pydantic_core" in maps.read_text()


async def _right_after_spawn(process: Process, data: Path) -> None:
    return None


async def _while_loading(process: Process, data: Path) -> None:
    await _until(_loading(process))


async def _while_its_redis_starts(process: Process, data: Path) -> None:
    await _until((data / "redis.owner.lock").exists)


async def _after_the_first_line(process: Process, data: Path) -> None:
    assert process.stdout is not None
    await asyncio.wait_for(process.stdout.readline(), 60)


def _no_redis_left(data: Path) -> bool:
    """Neither the embedded Redis's socket nor its process is there any more."""
    pid = data / "redis.pid"
    running = pid.exists() and Path(f"/proc/{pid.read_text().strip()}").exists()
    return not running and not (data / "redis.sock").exists()


MOMENTS: dict[str, Callable[[Process, Path], Awaitable[None]]] = {
    "right after spawn": _right_after_spawn,
    "while it loads its modules": _while_loading,
    "while its Redis starts": _while_its_redis_starts,
    "after the first line": _after_the_first_line,
}


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/<pid>/maps")
@pytest.mark.parametrize("moment", MOMENTS)
async def test_ctrl_c_while_the_playground_starts_ends_it_quietly(
    tmp_path: Path, moment: str
) -> None:
    """Never a traceback, never a wait: exit 0 (right after spawn, before Python has set up its
    own handling, the signal's usual end too), and the embedded Redis, if it began, is gone."""
    data = tmp_path / "data"
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "play", cwd=tmp_path, env=_env(data),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    await MOMENTS[moment](process, data)
    process.send_signal(signal.SIGINT)
    # A Redis server left running would hold these pipes open: this would not return.
    out, errors = await asyncio.wait_for(process.communicate(), 60)
    allowed = (0, -signal.SIGINT) if moment == "right after spawn" else (0,)
    assert process.returncode in allowed
    assert errors.decode() == ""
    assert out.decode() == "" or out.decode().rstrip().endswith("Bye!")
    assert _no_redis_left(data)
