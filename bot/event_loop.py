"""The event loop the bot's serving commands run on: uvloop's when it is installed (the `fast`
extra, `pip install 'shutbox[fast]'`), asyncio's own otherwise, or when SHUTBOX_EVENT_LOOP=asyncio
asks for it. Measured with `tests/bench/bench_surface.py`, uvloop did not lower the bot's CPU per
click (docs/operate/scaling.md), so the container image leaves it out.
"""

from __future__ import annotations

import asyncio
import importlib
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def loop_factory() -> LoopFactory | None:
    """uvloop's `new_event_loop` if installed and not declined; None for asyncio's default."""
    if os.environ.get("SHUTBOX_EVENT_LOOP", "").strip().lower() == "asyncio":
        return None
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        return None
    factory: LoopFactory = uvloop.new_event_loop
    return factory


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on the loop `loop_factory` picks."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
