"""The `shutbox` command as an operator runs it, on the test's Redis (the `configured` fixture)."""

from __future__ import annotations

import asyncio

from bot.cli import main


async def shutbox(*argv: str) -> int:
    """`shutbox ARGV` in a thread (it runs its own event loop); its exit code."""
    return await asyncio.to_thread(main, list(argv))
