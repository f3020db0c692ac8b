"""The serving commands' event loop: uvloop's when installed, unless asyncio's is asked for."""

from __future__ import annotations

import asyncio
import importlib.util

import pytest

from bot import event_loop

HAS_UVLOOP = importlib.util.find_spec("uvloop") is not None


async def loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_asyncio_is_used_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHUTBOX_EVENT_LOOP", "asyncio")
    assert event_loop.loop_factory() is None
    assert event_loop.run(loop_module()).startswith("asyncio")


@pytest.mark.skipif(not HAS_UVLOOP, reason="uvloop is not installed (the `fast` extra)")
def test_uvloop_is_used_when_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SHUTBOX_EVENT_LOOP", raising=False)
    assert event_loop.run(loop_module()).startswith("uvloop")
