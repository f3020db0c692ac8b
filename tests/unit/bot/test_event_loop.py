"""The serving commands' event loop: uvloop's when installed, unless asyncio's is asked for."""

from __future__ import annotations

import asyncio
import gc
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


async def collector_settings() -> tuple[tuple[int, ...], int]:
    return gc.get_threshold(), gc.get_freeze_count()


def test_the_collector_runs_rarely_while_serving_and_as_before_after() -> None:
    """Serving raises the collector's thresholds and freezes what was loaded before it; once
    the loop ends both are as they were."""
    before = gc.get_threshold()
    thresholds, frozen = event_loop.run(collector_settings())
    assert thresholds == event_loop.GC_THRESHOLDS and frozen > 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
