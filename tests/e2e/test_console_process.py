"""The playground as a real `shutbox` process: Ctrl-C says goodbye, and nothing else."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest


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
