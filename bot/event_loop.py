"""The event loop the bot's serving commands run on: uvloop's when it is installed (the `fast`
extra, `pip install 'shutbox[fast]'`), asyncio's own otherwise, or when SHUTBOX_EVENT_LOOP=asyncio
asks for it. Measured with `tests/bench/bench_surface.py`, uvloop did not lower the bot's CPU per
click (docs/operate/scaling.md), so the container image leaves it out.

While it runs, Python's cyclic garbage collector runs rarely: a click allocates thousands of
short-lived objects, so at the default threshold (700) the collector ran several times a click,
and what was imported before serving (the libraries, the catalogs) is frozen out of its scans.
In `bench_surface` that took 7-13% off the bot's CPU per click; the memory it lets wait is
at most one threshold's worth of young objects.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import os
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
LoopFactory = Callable[[], asyncio.AbstractEventLoop]
GC_THRESHOLDS = (50_000, 20, 100)  # young objects before a collection; then the older two


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


@contextmanager
def collected_rarely() -> Iterator[None]:
    """The collector's thresholds raised and what exists now frozen, until the block ends."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on the loop `loop_factory` picks, with the collector run rarely."""
    with collected_rarely(), asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
